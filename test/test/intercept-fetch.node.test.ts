// @vitest-environment node
import { interceptFetchContract } from './intercept-contract.js';

interceptFetchContract('node');
