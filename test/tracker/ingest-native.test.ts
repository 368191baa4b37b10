// The Node runtime's native bounded gunzip (src/node/runtime.ts) must answer ingest bodies
// exactly as the default DecompressionStream path does (ingest.test.ts).
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { nodeRuntime } from '../../src/node/runtime.js';
import { decodeIngestBody as decode } from '../../src/tracker/ingest-batch.js';

const decodeIngestBody = (bytes: Uint8Array, coding: string | null, limit: number) => decode(bytes, coding, limit, nodeRuntime.inflate);

const text = JSON.stringify({ type: 'ingest', events: [{ timestamp: '2026-03-01T10:00:00Z', n: 1 }] });
const statusOf = (p: Promise<unknown>) => p.then(() => 200, (e: { status: number; message: string }) => [e.status, e.message]);

describe('ingest gzip through native zlib (node host)', () => {
  it('decodes one or several members', async () => {
    expect(await decodeIngestBody(gzipSync(text), 'gzip', 1 << 20)).toEqual(JSON.parse(text));
    const two = Buffer.concat([gzipSync(text.slice(0, 10)), gzipSync(text.slice(10))]);
    expect(await decodeIngestBody(two, null, 1 << 20)).toEqual(JSON.parse(text));
  });

  // Its memory (peak RSS across the decode, against raw zlib and an unbounded inflate) is
  // measured by bench/gzip-bomb.mjs: a measurement, not an assertion.
  it('a gzip bomb stops at the limit (413)', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x30), { level: 9 });
    expect(await statusOf(decodeIngestBody(bomb, 'gzip', 1024 * 1024))).toEqual([413, 'Decompressed request body exceeds the limit of 1048576 bytes']);
  });

  it('truncated, corrupt or trailing garbage → 400 Malformed gzip body', async () => {
    const good = gzipSync(text);
    const badCrc = Buffer.from(good);
    badCrc[badCrc.length - 6]! ^= 1;
    for (const raw of [good.subarray(0, good.length - 12), badCrc, Buffer.concat([good, Buffer.from('garbage')])]) {
      const [status, message] = (await statusOf(decodeIngestBody(raw, 'gzip', 1 << 20))) as [number, string];
      expect(status).toBe(400);
      expect(message).toMatch(/^Malformed gzip body: /);
    }
  });
});
