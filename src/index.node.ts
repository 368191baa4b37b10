/**
 * The `mockyard` entry under Node (`node` export condition): everything in index.ts, plus the
 * disk default for the mock API (`fsDir` without `fs` serves that folder from disk).
 */
import './node/register-runtime.js';

export * from './index.js';
