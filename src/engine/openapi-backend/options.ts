/**
 * The backend's part of `mock.openapi: { document, … }`, checked at start-up:
 *   mock    answer the document's operations from generated, stateful data (default: true,
 *           false when a `proxy` is set: then what files and handlers leave goes to the proxy);
 *   seed    the data's seed (a number or a string; default 1): the same seed, the same data;
 *   count   items generated per collection: a number (default 20) or { <collection>: n, '*': n }
 *           (an `x-mockyard-count` extension in the document wins over the default);
 *   state   where the collections live: in memory (default), or a folder of collection files
 *           (a path, opened with the runtime's default filesystem: disk under Node; or a Vfs),
 *           state-folder.ts;
 *   ids     `population` (default): an id never created (or deleted) is the document's 404, so
 *           a not-found flow can be tested; `any`: Prism's stateless rule, any id answers an item
 *           drawn for it (the same for the same id), and writes to it are kept.
 */
import { check, describe, isPlainObject, OptionsError } from '../../core/options.js';
import { isVfs, type Vfs } from '../../vfs/types.js';

export interface BackendOptions {
  mock: boolean | undefined;
  seed: number | string;
  count: Record<string, number>;
  /** A folder (path) or a Vfs holding the collections, or undefined (memory). */
  state: string | Vfs | undefined;
  ids: 'population' | 'any';
}

export const BACKEND_KEYS = ['mock', 'seed', 'count', 'state', 'ids'] as const;

export const DEFAULT_COUNT = 20;
export const DEFAULT_SEED = 1;

export function resolveBackendOptions(value: Record<string, unknown>, option: string): BackendOptions {
  const mock = value.mock === undefined ? undefined : check.boolean(value.mock, `${option}.mock`, true);
  const seed = value.seed === undefined ? DEFAULT_SEED : value.seed;
  if (!(typeof seed === 'string' && seed !== '') && !(typeof seed === 'number' && Number.isFinite(seed))) throw new OptionsError(`${option}.seed`, `must be a number or a string (got ${describe(seed)})`);
  const count: Record<string, number> = { '*': DEFAULT_COUNT };
  if (typeof value.count === 'number') count['*'] = check.number(value.count, `${option}.count`, DEFAULT_COUNT, { min: 0, max: 100_000, integer: true });
  else if (isPlainObject(value.count)) {
    for (const [name, n] of Object.entries(value.count)) count[name] = check.number(n, `${option}.count.${name}`, DEFAULT_COUNT, { min: 0, max: 100_000, integer: true });
  } else if (value.count !== undefined) throw new OptionsError(`${option}.count`, `must be a number or { <collection>: number } (got ${describe(value.count)})`);
  const state = value.state;
  if (state !== undefined && !(typeof state === 'string' && state.trim() !== '') && !isVfs(state)) throw new OptionsError(`${option}.state`, `must be a folder path or a Vfs (got ${describe(state)})`);
  const ids = check.oneOf(value.ids, `${option}.ids`, ['population', 'any'] as const, 'population');
  return { mock, seed, count, state: state as string | Vfs | undefined, ids };
}
