/**
 * The files layer's `pagination` and `filters` options, resolved next to the layer
 * (src/engine/file-cache/query-options.ts): per-method maps with defaults filled in, errors naming the option.
 */
import { describe, expect, it } from 'vitest';
import { OptionsError } from '../../../src/core/options.js';
import { resolveFilters, resolvePagination } from '../../../src/engine/file-cache/query-options.js';

function refused(resolve: (v: unknown, option: string) => unknown, value: unknown): string {
  try {
    resolve(value, 'mock.x');
  } catch (err) {
    return err instanceof OptionsError ? err.option : `not an OptionsError: ${String(err)}`;
  }
  return 'accepted';
}

describe('pagination and filters (per-method maps)', () => {
  it('fill defaults, upper-case the method, and are null when absent or empty', () => {
    expect(resolvePagination(undefined, 'mock.pagination')).toBeNull();
    expect(resolvePagination({ get: { limit: '_limit' }, POST: null }, 'mock.pagination')).toEqual({ GET: { type: 'query-param', limit: '_limit' } });
    expect(resolveFilters({ ALL: { filters: [{ key: 'role' }] } }, 'mock.filters')).toEqual({
      ALL: { type: 'query-param', filters: [{ key: 'role', field: 'role', valueType: 'string', comparison: 'eq' }] },
    });
  });

  it('name the option in what they refuse', () => {
    expect(refused(resolvePagination, [])).toBe('mock.x');
    expect(refused(resolvePagination, { FETCH: {} })).toBe('mock.x.FETCH');
    expect(refused(resolvePagination, { GET: { limit: '' } })).toBe('mock.x.GET.limit');
    expect(refused(resolveFilters, { GET: { filters: [{}] } })).toBe('mock.x.GET.filters[0].key');
    expect(refused(resolveFilters, { GET: { filters: [{ key: 'a', comparison: 'like' }] } })).toBe('mock.x.GET.filters[0].comparison');
  });
});
