// @vitest-environment happy-dom
import { interceptFetchContract } from './intercept-contract.js';

interceptFetchContract('happy-dom');
