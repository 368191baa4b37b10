// @vitest-environment jsdom
import { interceptFetchContract } from './intercept-contract.js';

interceptFetchContract('jsdom');
