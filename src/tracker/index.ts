/** The event collector: public entry of src/tracker. */
export { createCollector } from './collector.js';
export { VERSION } from '../core/version.js';
export type {
  Collector,
  CollectorCorsOptions,
  CollectorLimits,
  CollectorOptions,
  CollectorRetention,
  CollectorStorageOptions,
  ReadResponse,
  TrackerEvent,
} from './types.js';
