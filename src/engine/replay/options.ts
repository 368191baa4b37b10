/** `mock.har` as given (replay/layer.ts serves it): the HAR object, or on Node a `.har` path. */
import { describe, isPlainObject, OptionsError } from '../../core/options.js';

export type HarOption = string | { log: { entries: unknown[] } & Record<string, unknown> };

/** Validates `mock.har`'s shape (the log itself is checked when the layer is built: har-entries.ts). */
export function resolveHarOption(value: unknown, option: string): HarOption | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' && value.trim() !== '') return value;
  if (isPlainObject(value)) return value as HarOption;
  throw new OptionsError(option, `must be a HAR log object or the path of a .har file (got ${describe(value)})`);
}
