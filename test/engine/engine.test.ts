import { afterAll, describe, expect, it, vi } from 'vitest';
import { createMockApi } from '../../src/engine/create-mock-api.js';
import { memoryFs } from '../../src/vfs/memory.js';
import { req, see } from '../helpers/engine-request.js';
import { connect } from '../helpers/fake-socket-peer.js';
import { removeTempDirs } from '../helpers/temp-dir.js';

afterAll(removeTempDirs);

describe('engine flow', () => {
  it('nothing matched: JSON 404 by default, undefined with forward', async () => {
    const a = createMockApi({ endpointPrefix: '/api', fs: memoryFs({}), logLevel: 'silent' });
    const r = await see(await a.handle(req('GET', '/api/missing')));
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ status: 404, error: 'NOT_FOUND', path: '/api/missing' });
    const b = createMockApi({ endpointPrefix: '/api', fs: memoryFs({}), noHandledRestFsRequestsAction: 'forward' });
    expect(await b.handle(req('GET', '/api/missing'))).toBeUndefined();
    // fs-mode answers with their own message are not forwarded
    expect((await b.handle(req('DELETE', '/api/missing')))!.status).toBe(404);
  });

  it('requests outside every prefix → undefined', async () => {
    const a = createMockApi({ endpointPrefix: '/api', fs: memoryFs({ 'x.json': {} }) });
    expect(await a.handle(req('GET', '/x'))).toBeUndefined();
  });

  it('global delay applies to file-mode responses', async () => {
    vi.useFakeTimers();
    try {
      const a = createMockApi({ endpointPrefix: '/api', fs: memoryFs({ 'x.json': { a: 1 } }), delay: 500, logLevel: 'silent' });
      await a.ready();
      let done = false;
      const p = a.handle(req('GET', '/api/x')).then((r) => {
        done = true;
        return r;
      });
      await vi.advanceTimersByTimeAsync(400);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(150);
      expect(done).toBe(true);
      expect((await p)!.status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('close() releases pending delays at once (no timer held)', async () => {
    // Fake timers that never move: only close() can end the 60 s delay.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const a = createMockApi({ endpointPrefix: '/api', fs: memoryFs({ 'x.json': { a: 1 } }), delay: 60_000, logLevel: 'silent' });
      await a.ready();
      const p = a.handle(req('GET', '/api/x'));
      while (vi.getTimerCount() === 0) await new Promise((r) => setImmediate(r)); // the delay's timer is set
      await a.close();
      expect(vi.getTimerCount()).toBe(0); // no timer held
      const nextTurn = new Promise((r) => setImmediate(() => r('still pending')));
      expect(await Promise.race([p.then((r) => r!.status), nextTurn])).toBe(200); // released at once
    } finally {
      vi.useRealTimers();
    }
  });

  it('logs one debug line per request: method, path, status, duration', async () => {
    const sink = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const a = createMockApi({ endpointPrefix: '/api', fs: memoryFs({ 'x.json': {} }), logLevel: 'debug', logger: sink });
    await a.handle(req('GET', '/api/x?q=1'));
    await a.handle(req('GET', '/api/none'));
    expect(sink.debug).toHaveBeenCalledTimes(2);
    expect(sink.debug.mock.calls[0]![0]).toMatch(/GET \/api\/x\?q=1 200 \d+\.\dms/);
    expect(sink.debug.mock.calls[1]![0]).toMatch(/GET \/api\/none 404/);
    const quiet = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const b = createMockApi({ endpointPrefix: '/api', fs: memoryFs({ 'x.json': {} }), logger: quiet });
    await b.handle(req('GET', '/api/x'));
    expect(quiet.debug).not.toHaveBeenCalled();
  });

  it('upgrade() outside the prefix → undefined; under it delegates to the WebSocket layer', async () => {
    const connected: string[] = [];
    const a = createMockApi({
      endpointPrefix: '/api',
      fs: memoryFs({}),
      enableWs: true,
      wsHandlers: [{ pattern: '/ws', onConnect: (c) => { connected.push(c.id); c.send({ hi: 1 }); }, onMessage: (c, m) => c.send({ echo: m }) }],
    });
    expect(await a.upgrade(req('GET', '/other/ws'))).toBeUndefined();
    // Under the prefix the WebSocket layer answers: it accepts, runs the handler, and broadcasts.
    const peer = await connect(a, 'http://mock.test/api/ws');
    expect(connected).toHaveLength(1);
    peer.say({ a: 1 });
    expect(await peer.waitFor(2)).toEqual([{ hi: 1 }, { echo: { a: 1 } }]);
    expect(a.ws.broadcast('/ws', { all: true })).toBe(1);
    expect(await peer.waitFor(3)).toEqual([{ hi: 1 }, { echo: { a: 1 } }, { all: true }]);
    expect(a.app.ws).toBe(a.ws);
    await a.close();
  });

  it('HEAD of a 404 has no body', async () => {
    const a = createMockApi({ endpointPrefix: '/api', fs: memoryFs({}), logLevel: 'silent' });
    const r = await a.handle(req('HEAD', '/api/none'));
    expect(r!.status).toBe(404);
    expect(await r!.text()).toBe('');
  });

  it('answers FastResponse objects that are real Responses', async () => {
    const a = createMockApi({ endpointPrefix: '/api', fs: memoryFs({ 'x.json': { a: 1 } }) });
    const r = await a.handle(req('GET', '/api/x'));
    expect(r).toBeInstanceOf(Response);
    expect(await r!.json()).toEqual({ a: 1 });
  });
});
