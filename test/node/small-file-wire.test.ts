/**
 * Small UTF-8 files go to node:http as text (one string write for head and body); every other
 * file as its bytes. Whatever the form, the client gets the stored bytes exactly, with a
 * Content-Length that counts them: a BOM, multi-byte characters, bytes that are not UTF-8, and a
 * file past the text limit.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createMockApi } from '../../src/engine/create-mock-api.js';
import { diskFs } from '../../src/vfs/disk.js';
import { closeServers, startServer } from '../helpers/server.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

afterEach(closeServers);
afterAll(removeTempDirs);

const enc = new TextEncoder();
const FILES: Record<string, Uint8Array> = {
  'bom.json': new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode('{"a":1}')]),
  'utf8.json': enc.encode(JSON.stringify({ name: 'Zoë 😀 ✓ 東京' })),
  'latin1.txt': new Uint8Array([0x63, 0x61, 0x66, 0xe9]), // "café" in Latin-1: not UTF-8
  'pixel.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]),
  'large.json': enc.encode(JSON.stringify({ text: 'é'.repeat(3000) })),
  'edge.json': enc.encode(JSON.stringify({ t: 'x'.repeat(2040) })), // exactly 2,048 bytes
};

describe('cached files through node:http', () => {
  it('answer the stored bytes exactly, text or not, with their Content-Length (twice: loaded, then cached)', async () => {
    const dir = await makeTempDir();
    for (const [name, bytes] of Object.entries(FILES)) await writeFile(join(dir, name), bytes);
    expect(FILES['edge.json']!.byteLength).toBe(2048);
    const api = createMockApi({ endpointPrefix: '/api', fs: diskFs(dir), logLevel: 'silent' });
    const server = await startServer({ engines: [api] });
    for (let round = 0; round < 2; round++) {
      for (const [name, bytes] of Object.entries(FILES)) {
        const res = await fetch(`${server.url}/api/${name}`);
        expect(res.status, name).toBe(200);
        const got = new Uint8Array(await res.arrayBuffer());
        expect(res.headers.get('content-length'), name).toBe(String(bytes.byteLength));
        expect(Buffer.from(got).equals(Buffer.from(bytes)), `${name} round ${round}`).toBe(true);
      }
    }
    const head = await fetch(`${server.url}/api/utf8.json`, { method: 'HEAD' });
    expect(head.headers.get('content-length')).toBe(String(FILES['utf8.json']!.byteLength));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    await api.close();
  });
});
