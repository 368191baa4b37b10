/**
 * The `preset` option (`mock.preset`): `'json-server'` (json-server's conventions: collections,
 * its query syntax, the rewrite layer's trailing slash, GraphQL on) or none (the spec's file mode,
 * the default). The option list hands it to those surfaces; this folder reads it to point at it
 * while it is off (layer.ts: the `hint` of a 404 for `<array>/<id>`, the unread-query warning).
 */
import { check } from '../../core/options.js';

export type Preset = 'json-server';

/** Validates `preset`: null when unset. */
export function resolvePreset(value: unknown, option: string): Preset | null {
  return value === undefined || value === null ? null : check.oneOf(value, option, ['json-server'] as const, 'json-server');
}
