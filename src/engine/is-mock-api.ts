/**
 * THE test of "is this engine a mock API" (the host's journal and devtools, the CLI's start-up
 * lines, the msw hosts' sockets): its `kind`, set by createMockApi and kept by wrappers that
 * delegate through the prototype (the CLI's request log, the journal).
 */
import type { Engine } from '../core/engine.js';
import type { MockApi } from './create-mock-api.js';

export function isMockApi(engine: Engine | undefined): engine is MockApi {
  return engine !== undefined && engine.kind === 'mock-api';
}
