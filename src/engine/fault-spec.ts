/**
 * The fault options' types (a handler's `fault`, `mock.faults` rules), apart from their
 * validation (faults/options.ts), on the engine's contract floor: a handler's options
 * (`engine/types.ts`), the option list and the faults layer all name them.
 */
import type { ConnectionFault } from '../core/connection-fault.js';
import type { DelayOption } from './delay.js';

/** What may go wrong (a handler's `fault`, or a rule without its method and path). */
export interface FaultOptions {
  delay?: DelayOption;
  /** Share of matching requests that fail, 0…1 (default 1). */
  errorRate?: number;
  /** The status of a failure without `fault` (default 503). */
  status?: number;
  fault?: ConnectionFault['type'] | ConnectionFault;
  /** Seed of the draws (delay, errorRate): the same seed replays the same faults. */
  seed?: number | string;
}

export interface FaultRule extends FaultOptions {
  method?: string;
  /** A handler pattern below the prefix. */
  path: string;
}
