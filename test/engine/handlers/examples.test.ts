/**
 * The examples in examples/ work as documented (they are what users copy).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SocketAccept, SocketPeer, SocketSession } from '../../../src/core/socket.js';
import { todoHandlers } from '../../../examples/handler.js';
import { cors, problemJson, requireToken } from '../../../examples/middleware.js';
import { announceHandler, chatHandler } from '../../../examples/ws-chat.js';
import { call, closeApis, mockApi } from './engine-helpers.js';

// The examples import 'mockyard' as users do; here it is the source tree (no build needed).
vi.mock('mockyard', () => import('../../../src/index.js'));

afterEach(closeApis);

describe('examples', () => {
  it('handler + middleware: todos with CORS, token check and problem+json errors', async () => {
    const api = mockApi(
      { handlers: todoHandlers, handlerMiddlewares: [cors, requireToken], errorMiddlewares: [problemJson] },
      { 'users/1.json': { id: 1 } },
    );
    const list = await call(api, '/api/todos');
    expect(list.headers.get('access-control-allow-origin')).toBe('*');
    expect(await list.json()).toEqual([{ id: 1, title: 'Write the mock', done: false }]);
    expect((await call(api, '/api/todos', { method: 'POST', body: '{"title":"x"}', headers: { 'Content-Type': 'application/json' } })).status).toBe(401);
    const created = await call(api, '/api/todos', { method: 'POST', body: '{"title":"Test it"}', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ann' } });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/api/todos/2');
    const missing = await call(api, '/api/todos/99');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/problem+json');
    expect(await missing.json()).toEqual({ title: 'Todo 99 not found', status: 404, instance: '/api/todos/99' });
    expect(await (await call(api, '/api/people/1')).json()).toEqual({ id: 1 });
  });

  it('ws-chat: rooms and the REST announcement', async () => {
    const api = mockApi({ enableWs: true, wsHandlers: [chatHandler], handlers: [announceHandler] });
    const peers: Array<{ sent: unknown[]; session: SocketSession }> = [];
    for (const url of ['/api/chat/general?name=ann', '/api/chat/general?name=bob']) {
      const accept = (await api.upgrade(new Request(`http://localhost${url}`))) as SocketAccept;
      const sent: unknown[] = [];
      const peer: SocketPeer = { send: (d) => sent.push(JSON.parse(d as string)), close() {}, terminate() {}, ping: () => true, bufferedAmount: 0 };
      peers.push({ sent, session: accept(peer) });
    }
    peers[1]!.session.message(JSON.stringify({ type: 'say', text: 'hi' }));
    await new Promise((r) => setTimeout(r, 0));
    expect(peers[0]!.sent).toContainEqual({ type: 'said', name: 'bob', text: 'hi' });
    expect(peers[1]!.sent).toContainEqual({ type: 'said', name: 'bob', text: 'hi' });
    const res = await call(api, '/api/announce', { method: 'POST', body: '{"text":"deploy"}', headers: { 'Content-Type': 'application/json', Authorization: 'x' } });
    expect(await res.json()).toEqual({ delivered: 2 });
    expect(peers[0]!.sent).toContainEqual({ type: 'announcement', text: 'deploy' });
  });
});
