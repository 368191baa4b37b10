/**
 * The codecs are part of the runtime object a host hands to the engines it makes, never module
 * state: hosts in one process made with different runtimes each decode compressed request bodies
 * (both engines) and gzip the collector's reads with their own codecs; a host on the web-standard
 * runtime (`{}`) uses none of them (DecompressionStream, fflate), even with Node's runtime
 * imported and other hosts made before it.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../src/host/create-host.js';
import type { Runtime } from '../../src/host/runtime.js';
import { nodeRuntime } from '../../src/node/runtime.js';
import { memoryFs } from '../../src/vfs/memory.js';

interface Counted extends Runtime {
  calls: { inflate: number; deflateRaw: number; crc32: number };
}

/** Node's codecs, counted. */
function counted(): Counted {
  const calls = { inflate: 0, deflateRaw: 0, crc32: 0 };
  return {
    calls,
    inflate: (format, bytes, max) => (calls.inflate++, nodeRuntime.inflate!(format, bytes, max)),
    deflateRaw: (bytes) => (calls.deflateRaw++, nodeRuntime.deflateRaw!(bytes)),
    crc32: (bytes, crc) => (calls.crc32++, nodeRuntime.crc32!(bytes, crc)),
  };
}

const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

async function host(runtime: Runtime): Promise<Host> {
  const h = await createHost({
    runtime,
    mock: { fs: memoryFs({ 'users.json': [] }), endpointPrefix: '/api', logLevel: 'silent' },
    tracker: { appId: 'demo', logLevel: 'silent' },
  });
  hosts.push(h);
  return h;
}

const gzipJson = (value: unknown) => gzipSync(JSON.stringify(value));

async function postUser(h: Host, id: number): Promise<number> {
  const r = await h.fetch(new Request(`http://app.test/api/users/${id}`, { method: 'POST', body: gzipJson({ id, name: `u${id}` }), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } }));
  expect(r.status, await r.clone().text()).toBe(201);
  const back = await h.fetch(new Request(`http://app.test/api/users/${id}`));
  expect(await back.json()).toEqual({ id, name: `u${id}` });
  return r.status;
}

describe('codecs travel with the runtime object, per host', () => {
  it("compressed request bodies of the mock API are decoded with the host's own inflate", async () => {
    const a = counted();
    const b = counted();
    const hostA = await host(a);
    const hostB = await host(b);
    const plain = await host({}); // made last: it installs nothing, nor keeps what others brought
    await postUser(hostA, 1);
    expect([a.calls.inflate, b.calls.inflate]).toEqual([1, 0]);
    await postUser(plain, 2);
    expect([a.calls.inflate, b.calls.inflate]).toEqual([1, 0]);
    await postUser(hostB, 3);
    await postUser(hostB, 4);
    expect([a.calls.inflate, b.calls.inflate]).toEqual([1, 2]);
  });

  it("the collector's gzip ingest and gzip reads use the host's own codecs", async () => {
    const a = counted();
    const b = counted();
    const hostA = await host(a);
    const hostB = await host(b);
    const plain = await host({});
    const events = Array.from({ length: 200 }, (_, i) => ({ timestamp: `2026-03-01T10:${String(i % 60).padStart(2, '0')}:00Z`, type: 'click', page: `/page/${i}` }));
    for (const h of [hostA, plain]) {
      const r = await h.fetch(new Request('http://app.test/_tracker/events', { method: 'POST', body: gzipJson({ type: 'ingest', events }), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } }));
      expect(r.status).toBe(200);
    }
    expect(a.calls.inflate).toBe(1);
    for (const h of [hostA, plain]) {
      const r = await h.fetch(new Request('http://app.test/_tracker?since=2026-03-01T00:00:00Z&until=2026-03-02T00:00:00Z', { headers: { 'accept-encoding': 'gzip' } }));
      expect(r.headers.get('content-encoding')).toBe('gzip');
      const json = JSON.parse(gunzipSync(new Uint8Array(await r.arrayBuffer())).toString());
      expect(json.total).toBe(200);
    }
    expect(a.calls.deflateRaw).toBeGreaterThan(0);
    expect(a.calls.crc32).toBeGreaterThan(0);
    const afterA = { ...a.calls };
    // The plain host's read used none of A's codecs, and B (never asked) none at all.
    expect(b.calls).toEqual({ inflate: 0, deflateRaw: 0, crc32: 0 });
    await plain.fetch(new Request('http://app.test/_tracker?since=2026-03-01T00:00:00Z&until=2026-03-02T00:00:00Z', { headers: { 'accept-encoding': 'gzip' } }));
    expect(a.calls).toEqual(afterA);
    void hostB;
  });
});
