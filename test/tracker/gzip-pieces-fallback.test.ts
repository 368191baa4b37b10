import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { deflatePiece, GzipAssembler, PieceDeflater } from '../../src/tracker/gzip-pieces.js';

// A module of its own (vitest isolates test files): here no deflater was ever prepared or registered.
describe('gzip pieces without a loaded deflater', () => {
  it('pieces become stored blocks (≤ 65535 bytes each): still one valid gzip member', () => {
    const big = 'x'.repeat(200_000) + 'é'.repeat(1000);
    const d = new PieceDeflater();
    for (let i = 0; i < big.length; i += 70_000) d.push(big.slice(i, i + 70_000));
    const piece = d.finish();
    expect(piece.size).toBe(new TextEncoder().encode(big).length);
    expect(piece.deflatedSize).toBeGreaterThan(piece.size); // stored, not compressed
    const g = new GzipAssembler();
    g.add(deflatePiece('{"a":"'));
    g.add(piece);
    g.add(deflatePiece('"}'));
    expect(gunzipSync(g.finish()).toString()).toBe(`{"a":"${big}"}`);
  });
});
