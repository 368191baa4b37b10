/**
 * The store is the floor under the data layers (ARCHITECTURE.md, the engine map): no file of
 * src/engine/store imports a layer built on it (collections, graphql, openapi-backend, sessions,
 * handlers) — relation plurals, the query run and the scan live in the store itself.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const STORE = resolve(import.meta.dirname, '../../../src/engine/store');
const ABOVE = ['collections', 'graphql', 'openapi-backend', 'sessions', 'handlers', 'pipeline'];

describe('the store imports no layer above it', () => {
  it('every import of src/engine/store stays in the store, fs/, or a lower floor', () => {
    const upward: string[] = [];
    for (const name of readdirSync(STORE).filter((n) => n.endsWith('.ts'))) {
      const code = readFileSync(join(STORE, name), 'utf8');
      for (const m of code.matchAll(/\b(?:from|import)\s*\(?\s*'(\.\.\/[^']+)'/g)) {
        const folder = m[1]!.split('/')[1]!;
        if (ABOVE.includes(folder)) upward.push(`${name} → ${m[1]}`);
      }
    }
    expect(upward).toEqual([]);
  });
});
