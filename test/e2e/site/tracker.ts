/**
 * The tracker client's delivery page (test/e2e/tracker-delivery.e2e.ts), set up by its query:
 *   host=node&collector=<origin>   the client sends to a real node host on another origin
 *   key=<apiKey>                   storage.apiKey (X-Tracker-Key, so every fetch is preflighted; beacons ?key=)
 *   host=sw                        the collector runs in this page behind the service worker, its
 *                                  events on IndexedDB (`e2e-tracker-<run>`), so they survive loads
 *   mode=websocket                 storage.mode websocket instead of http
 *   run=<id>                       the persist key and the IndexedDB name of one run
 *   latency=<ms> / down=1          (host=sw) the in-page collector answers late / 503
 * It exposes `window.tracker` for the test: `ready`, `client`, `track(n, opts)`, `navigate(url)`
 * (in the same task as the last track), `count()` (events of this run stored by the in-page
 * collector), `dropSockets({ loseAcks })` (host=sw: the collector's side of the WebSocket).
 */
// The collector and its IndexedDB driver from the sources (one copy, so their error classes match):
// the `mockyard` entry also pulls in memfs (node:buffer), which a browser bundle cannot load.
import { createCollector } from '../../../src/tracker/collector.js';
import { indexedDbFs } from '../../../src/vfs/indexeddb.js';
import { startWorker } from 'mockyard/browser';
import { createTrackerClient, type TrackerClient } from 'mockyard/tracker';
import type { Engine } from '../../../src/core/engine.js';
import type { SocketPeer, UpgradeResult } from '../../../src/core/socket.js';

const params = new URLSearchParams(location.search);
const host = params.get('host') ?? 'sw';
const run = params.get('run') ?? 'default';
const mode = params.get('mode') === 'websocket' ? 'websocket' : 'http';
const latency = Number(params.get('latency') ?? 0);
const down = params.get('down') === '1';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const peers = new Set<SocketPeer>();
let loseAcks = false;

/** The in-page collector, wrapped: latency, down, and a hand on its WebSocket peers. */
function pageCollector(): Engine {
  const base = createCollector({ appId: 'e2e-tracker', logLevel: 'silent', readCompression: 'none', storage: { fs: indexedDbFs(`e2e-tracker-${run}`) } });
  const wrap = (r: UpgradeResult): UpgradeResult => {
    if (typeof r !== 'function') return r;
    return Object.assign((peer: SocketPeer) => {
      const p: SocketPeer = {
        send: (data) => {
          if (loseAcks && typeof data === 'string' && data.startsWith('{"type":"ack"')) return;
          peer.send(data);
        },
        close: (code, reason) => peer.close(code, reason),
        terminate: () => peer.terminate(),
        ping: () => peer.ping(),
        get bufferedAmount() {
          return peer.bufferedAmount;
        },
      };
      peers.add(peer);
      return r(p);
    }, { maxMessageBytes: r.maxMessageBytes });
  };
  return {
    prefixes: base.prefixes,
    async handle(request) {
      if (down) return Response.json({ status: 503, message: 'down for the test' }, { status: 503 });
      if (latency) await sleep(latency);
      return base.handle(request);
    },
    upgrade(request) {
      const r = base.upgrade!(request);
      return r instanceof Promise ? r.then(wrap) : wrap(r);
    },
    close: () => base.close(),
  };
}

async function start(): Promise<TrackerClient> {
  let endpoint = '/_tracker/events';
  let wsEndpoint = `${location.origin.replace(/^http/, 'ws')}/_tracker/ws`;
  if (host === 'node') {
    const collector = params.get('collector')!;
    endpoint = `${collector}/_tracker/events`;
    wsEndpoint = `${collector.replace(/^http/, 'ws')}/_tracker/ws`;
  } else {
    await startWorker({ tracker: pageCollector(), quiet: true });
  }
  const apiKey = params.get('key') ?? undefined;
  return createTrackerClient({
    storage: mode === 'websocket' ? { mode: 'websocket', wsEndpoint, apiKey } : { mode: 'http', writeEndpoint: endpoint, apiKey },
    persist: { key: `e2e-${run}` },
    flushInterval: 200,
    flushTimeout: 3000,
    backoff: { base: 200, max: 1000 },
  });
}

const ready = start();
const window24h = () => `since=${new Date(Date.now() - 86400_000).toISOString()}&until=${new Date(Date.now() + 86400_000).toISOString()}`;

Object.assign(window, {
  tracker: {
    ready: ready.then(() => 'ready', (err: Error) => `error: ${err.message}`),
    stats: async () => (await ready).stats(),
    /** n events of this run (`pad` characters each, `bad` indexes with an invalid timestamp), then `navigate` in the same task. */
    async track(n: number, opts: { pad?: number; bad?: number[]; big?: number; navigate?: string } = {}) {
      const client = await ready;
      for (let i = 0; i < n; i++) {
        const event: Record<string, unknown> = { type: 'e2e', level: 'info', run, i, route: location.pathname, userId: 'u1' };
        if (opts.pad) event.pad = 'x'.repeat(opts.pad);
        if (opts.big !== undefined && i === opts.big) event.message = 'b'.repeat(70_000);
        if (opts.bad?.includes(i)) event.timestamp = 'not-a-date';
        client.track(event);
      }
      if (opts.navigate) location.href = opts.navigate;
    },
    /** The in-page collector's events of this run (host=sw). */
    async events() {
      await ready;
      const res = await fetch(`/_tracker?${window24h()}`);
      const body = (await res.json()) as { events: Array<Record<string, unknown>> };
      return body.events.filter((e) => e.run === run);
    },
    dropSockets(opts: { loseAcks?: boolean; close?: boolean } = {}) {
      if (opts.loseAcks !== undefined) loseAcks = opts.loseAcks;
      if (opts.close) {
        for (const p of peers) p.close(1011, 'dropped by the test');
        peers.clear();
      }
    },
  },
});
void ready.then(() => (document.getElementById('status')!.textContent = 'ready'));
