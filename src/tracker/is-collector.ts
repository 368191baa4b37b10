/**
 * THE test of "is this engine an event collector" (the host's journal, the start-up map, the home
 * page, the CLI's start-up lines): its `kind`, set by createCollector and kept by wrappers that
 * delegate through the prototype (the journal's, the request log's).
 */
import type { Engine } from '../core/engine.js';
import type { Collector } from './types.js';

export function isCollector(engine: Engine | undefined): engine is Collector {
  return engine !== undefined && engine.kind === 'collector';
}
