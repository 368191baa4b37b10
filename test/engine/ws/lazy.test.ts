/**
 * The WebSocket layer (src/engine/ws/layer.ts) is a dynamic import started at start-up when
 * enableWs is on (its own chunk in browser bundles); its options are checked synchronously all the
 * same. Its load is held back here (vi.mock with a gate) to pin down what the engine does meanwhile.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SocketAccept, SocketPeer, SocketSession } from '../../../src/core/socket.js';
import { OptionsError } from '../../../src/core/options.js';
import { closeApis, mockApi } from '../handlers/engine-helpers.js';

const gate = vi.hoisted(() => {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open: () => open(), imports: 0 };
});
vi.mock('../../../src/engine/ws/layer.js', async (importOriginal) => {
  gate.imports++;
  await gate.opened;
  return importOriginal();
});

afterEach(() => closeApis());

const peer = (): SocketPeer & { sent: unknown[] } => {
  const sent: unknown[] = [];
  return { sent, send: (d) => sent.push(d), close() {}, terminate() {}, ping: () => false, bufferedAmount: 0 };
};

describe('WebSocket layer loaded on demand', () => {
  it('without enableWs nothing is imported; with it, the import starts at once and ready() waits for it', async () => {
    mockApi({ wsHandlers: [{ pattern: '/ws', onMessage() {} }] });
    await Promise.resolve();
    expect(gate.imports).toBe(0);

    // Options are still checked synchronously, before any import.
    expect(() => mockApi({ enableWs: true, wsHandlers: [{ pattern: '/ws', onMessage() {}, onConnect: 1 as never }] })).toThrow(OptionsError);
    expect(() => mockApi({ enableWs: true, wsHandlers: [{ pattern: '/ws/{id', onMessage() {} }] })).toThrow(/mock\.wsHandlers\[0\]\.pattern/);
    expect(() => mockApi({ enableWs: true, wsHandlers: [{ pattern: '/ws', onMessage() {}, authenticate: 'bad header' as never }] })).toThrow(/mock\.wsHandlers\[0\]\.authenticate/);
    expect(gate.imports).toBe(0);

    const api = mockApi({ enableWs: true, wsHandlers: [{ pattern: '/ws', onMessage(c, m) { c.send(m); } }] });
    let ready = false;
    void api.ready().then(() => (ready = true));
    // A handshake before the code is loaded waits for it; broadcasts reach nobody yet but
    // still refuse an unknown pattern.
    const pending = api.upgrade(new Request('http://localhost/api/ws'));
    expect(pending).toBeInstanceOf(Promise);
    expect(api.ws.broadcast('/ws', 'x')).toBe(0);
    expect(() => api.ws.broadcast('/nope', 'x')).toThrow(/no WebSocket handler/);
    await new Promise((r) => setTimeout(r, 10));
    expect(ready).toBe(false);
    expect(gate.imports).toBe(1);

    gate.open();
    await api.ready();
    const accept = (await pending) as SocketAccept;
    expect(typeof accept).toBe('function');
    const p = peer();
    const session: SocketSession = accept(p);
    session.message('hi');
    await new Promise((r) => setTimeout(r, 0));
    expect(p.sent).toEqual(['hi']);
    expect(api.ws.broadcast('/ws', { n: 1 })).toBe(1);
    // Loaded: later handshakes are answered synchronously.
    expect(typeof api.upgrade(new Request('http://localhost/api/ws'))).toBe('function');
  });
});
