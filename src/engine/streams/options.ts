/**
 * The `streams` option (`mock.streams`): how recorded streams (`.sse` / `.ndjson` files) replay.
 *
 *   streams: { speed: 1 }   as recorded (default)
 *   streams: { speed: 0 }   every event at once (tests)
 *   streams: { speed: 4 }   four times as fast
 * A request may ask for its own speed (`X-Mockyard-Speed` / `?__speed=`, speed.ts).
 */
import { check, OptionsError } from '../../core/options.js';

export interface StreamsOption {
  /** Divides every recorded delay: 1 as recorded, 2 twice as fast, 0 at once. Default 1. */
  speed?: number;
}

export interface ResolvedStreams {
  readonly speed: number;
}

export const DEFAULT_STREAMS: ResolvedStreams = { speed: 1 };

export function resolveStreamsOptions(value: unknown, option: string): ResolvedStreams {
  if (value === undefined || value === null) return DEFAULT_STREAMS;
  if (typeof value !== 'object' || Array.isArray(value)) throw new OptionsError(option, 'must be an object such as { speed: 0 }');
  check.knownKeys(value as Record<string, unknown>, option, ['speed']);
  return { speed: check.number((value as StreamsOption).speed, `${option}.speed`, 1, { min: 0 })! };
}
