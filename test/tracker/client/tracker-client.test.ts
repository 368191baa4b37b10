/**
 * The browser tracker client against a real node:http server (real fetch, real gzip from
 * CompressionStream, decoded by zlib on the server side).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTrackerClient, type TrackerClient } from '../../../src/tracker/client.js';

interface Received {
  url: string;
  headers: IncomingHttpHeaders;
  body: { type: string; batchId: string; events: Array<Record<string, unknown>> };
}

let server: Server;
let base: string;
let received: Received[];
let statuses: number[];
/** batchId of every request, answered or not. */
let batchIds: string[];
let clients: TrackerClient[];

beforeEach(async () => {
  received = [];
  statuses = [];
  batchIds = [];
  clients = [];
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const text = req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw).toString() : raw.toString();
      const status = statuses.shift() ?? 200;
      batchIds.push(JSON.parse(text).batchId);
      if (status < 300) received.push({ url: req.url!, headers: req.headers, body: JSON.parse(text) });
      res.statusCode = status;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterEach(async () => {
  for (const c of clients) c.stop();
  await new Promise((r) => server.close(r));
});

function client(opts: Parameters<typeof createTrackerClient>[0] = {}) {
  const c = createTrackerClient({ endpoint: `${base}/_tracker/events`, flushInterval: 0, beaconOnPageHide: false, persist: false, ...opts });
  clients.push(c);
  return c;
}

describe('tracker client', () => {
  it('sends a gzip ingest body with Content-Encoding: gzip, ids empty, timestamps set', async () => {
    const c = client();
    c.track({ type: 'click', level: 'info' });
    c.track({ type: 'view', timestamp: '2026-01-01T00:00:00.000Z' });
    expect(await c.flush()).toBe(true);
    expect(received).toHaveLength(1);
    const [r] = received;
    expect(r!.headers['content-encoding']).toBe('gzip');
    expect(r!.headers['content-type']).toBe('application/json');
    expect(r!.headers['x-tracker-key']).toBeUndefined();
    expect(r!.body.type).toBe('ingest');
    expect(r!.body.events.map((e) => [e.type, e.id])).toEqual([['click', ''], ['view', '']]);
    expect(Number.isNaN(Date.parse(r!.body.events[0]!.timestamp as string))).toBe(false);
    expect(r!.body.events[1]!.timestamp).toBe('2026-01-01T00:00:00.000Z');
    expect(c.pending).toBe(0);
  });

  it('sends plain JSON when compression is off, and X-Tracker-Key with an apiKey', async () => {
    const c = client({ compress: false, apiKey: 's3cret' });
    c.track({ type: 'a' });
    await c.flush();
    expect(received[0]!.headers['content-encoding']).toBeUndefined();
    expect(received[0]!.headers['x-tracker-key']).toBe('s3cret');
  });

  it('splits the queue into batches of batchSize, in order', async () => {
    const c = client({ batchSize: 25 });
    for (let i = 0; i < 60; i++) c.track({ type: 'n', i });
    await c.flush();
    expect(received.map((r) => r.body.events.length)).toEqual([25, 25, 10]);
    expect(received.flatMap((r) => r.body.events.map((e) => e.i))).toEqual(Array.from({ length: 60 }, (_, i) => i));
  });

  it('keeps a batch answered with non-2xx and sends it again (same batchId) on the next flush, once', async () => {
    const errors: unknown[] = [];
    const c = client({ onError: (e) => errors.push(e) });
    c.track({ type: 'a' });
    c.track({ type: 'b' });
    statuses.push(503);
    expect(await c.flush()).toBe(false);
    const failedIds = [...batchIds];
    expect(c.pending).toBe(2);
    expect(String(errors[0])).toContain('503');
    c.track({ type: 'c' });
    expect(await c.flush()).toBe(true);
    // The refused batch keeps its identity (the collector may have stored it); 'c' follows in its own.
    expect(received.map((r) => r.body.events.map((e) => e.type))).toEqual([['a', 'b'], ['c']]);
    expect(received[0]!.body.batchId).toBe(failedIds[0]);
    expect(received[1]!.body.batchId).not.toBe(failedIds[0]);
  });

  it('keeps events when the network fails', async () => {
    const c = client({ endpoint: 'http://127.0.0.1:1/_tracker/events' });
    c.track({ type: 'a' });
    expect(await c.flush()).toBe(false);
    expect(c.pending).toBe(1);
  });

  it('flushes on its own once a full batch is queued', async () => {
    const c = client({ batchSize: 3 });
    c.track({ type: '1' });
    c.track({ type: '2' });
    expect(received).toHaveLength(0);
    c.track({ type: '3' });
    await expect.poll(() => received.length).toBe(1);
  });

  it('flushes by timer', async () => {
    const c = client({ flushInterval: 20 });
    c.track({ type: 't' });
    await expect.poll(() => received.length).toBe(1);
  });

  it('beacons the queue as plain JSON blobs with ?key= (beacons carry no headers)', async () => {
    const beacons: Array<{ url: string; blob: Blob }> = [];
    const c = client({ apiKey: 'k y', batchSize: 2, sendBeacon: (url, blob) => (beacons.push({ url, blob }), true) });
    for (let i = 0; i < 3; i++) c.track({ type: 'b', i });
    // batchSize reached → an automatic fetch flush may have started; beacon what is left.
    await c.flush();
    c.track({ type: 'last' });
    expect(c.flushBeacon()).toBe(true);
    expect(beacons).toHaveLength(1);
    expect(beacons[0]!.url).toBe(`${base}/_tracker/events?key=k%20y`);
    expect(beacons[0]!.blob.type).toBe('application/json');
    expect(JSON.parse(await beacons[0]!.blob.text())).toMatchObject({ type: 'ingest', events: [{ type: 'last', id: '' }] });
    expect(c.pending).toBe(1); // owned until acknowledged: a beacon's fate is unknowable
  });

  it('keeps what the browser refused to beacon', () => {
    const c = client({ sendBeacon: () => false });
    c.track({ type: 'x' });
    expect(c.flushBeacon()).toBe(false);
    expect(c.pending).toBe(1);
  });
});
