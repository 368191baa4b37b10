/**
 * GraphQL over WebSocket with the `graphql-transport-ws` protocol (the one the `graphql-ws`
 * client speaks), on the host-neutral socket seam (core/socket.ts), so it runs wherever the mock
 * API takes sockets: the node host, Vite/connect, the browser worker.
 *
 *   client → connection_init            server → connection_ack (a second init: close 4429)
 *   client → ping                       server → pong
 *   client → subscribe { id, payload }  server → next { id, payload: result }… then complete { id }
 *                                       (a subscription streams until it ends or the client
 *                                       completes it; a query or mutation answers once)
 *                                       a document that cannot run → error { id, payload: [errors] }
 *   client → complete { id }            the subscription stops
 * Closes as the protocol says: 4400 an invalid message, 4401 subscribe before the ack,
 * 4409 an id in use.
 */
import type { SocketPeer, SocketSession } from '../../core/socket.js';
import { DocumentError, formatResult, type GraphqlRequest, type GraphqlService } from './service.js';
import { isObj } from '../../core/json-object.js';

interface Message {
  type?: unknown;
  id?: unknown;
  payload?: unknown;
}

const MAX_MESSAGE = 1024 * 1024;

/**
 * `own(request)`: answers that come before the schema (GraphQL handlers, a refusal), each sent
 * as a `next`, then `complete`; undefined lets the schema answer.
 */
export function graphqlWsSession(
  peer: SocketPeer,
  service: GraphqlService,
  label: (request: GraphqlRequest) => void,
  own?: (request: GraphqlRequest) => AsyncIterableIterator<object> | undefined,
): SocketSession {
  let acknowledged = false;
  let closed = false;
  const running = new Map<string, { stop(): void }>();

  const send = (message: Record<string, unknown>) => {
    if (!closed) peer.send(JSON.stringify(message));
  };
  const close = (code: number, reason: string) => {
    if (closed) return;
    peer.close(code, reason);
  };

  async function start(id: string, request: GraphqlRequest): Promise<void> {
    let stopped = false;
    let iterator: AsyncIterableIterator<object> | undefined;
    running.set(id, {
      stop() {
        stopped = true;
        void iterator?.return?.();
      },
    });
    /** Each answer of `answers` as a `next`, until it ends or the client completes the id. */
    const relay = async <T extends object>(answers: AsyncIterableIterator<T>, payload: (answer: T) => object) => {
      iterator = answers;
      if (stopped) void iterator.return?.();
      for await (const answer of answers) {
        if (stopped) break;
        send({ type: 'next', id, payload: payload(answer) });
      }
    };
    try {
      label(request);
      const answers = own?.(request);
      if (answers) await relay(answers, (answer) => answer);
      else {
        const { derived, data } = await service.current();
        const prepared = service.prepare(derived.schema, request);
        const result = prepared.operation?.operation === 'subscription' ? await service.subscribe(request, prepared, derived, data) : await service.execute(request, prepared, derived, data);
        if (Symbol.asyncIterator in result) await relay(result, formatResult);
        else if (!stopped) send({ type: 'next', id, payload: formatResult(result) });
      }
      if (!stopped && running.get(id) !== undefined) send({ type: 'complete', id });
    } catch (err) {
      if (!stopped) {
        const errors = err instanceof DocumentError ? err.errors : [{ message: (err as Error)?.message ?? String(err), extensions: { code: 'INTERNAL_SERVER_ERROR' } }];
        send({ type: 'error', id, payload: errors });
      }
    } finally {
      running.delete(id);
    }
  }

  return {
    message(data) {
      if (typeof data !== 'string' || data.length > MAX_MESSAGE) return close(4400, 'Invalid message received');
      let m: Message;
      try {
        m = JSON.parse(data) as Message;
      } catch {
        return close(4400, 'Invalid message received');
      }
      if (!isObj(m)) return close(4400, 'Invalid message received');
      switch (m.type) {
        case 'connection_init':
          if (acknowledged) return close(4429, 'Too many initialisation requests');
          acknowledged = true;
          return send({ type: 'connection_ack' });
        case 'ping':
          return send(m.payload === undefined ? { type: 'pong' } : { type: 'pong', payload: m.payload });
        case 'pong':
          return;
        case 'subscribe': {
          if (!acknowledged) return close(4401, 'Unauthorized');
          const p = m.payload;
          if (typeof m.id !== 'string' || m.id === '' || !isObj(p) || typeof p.query !== 'string') return close(4400, 'Invalid message received');
          if (running.has(m.id)) return close(4409, `Subscriber for ${m.id} already exists`);
          const request: GraphqlRequest = {
            query: p.query,
            variables: isObj(p.variables) ? p.variables : null,
            operationName: typeof p.operationName === 'string' ? p.operationName : null,
          };
          void start(m.id, request);
          return;
        }
        case 'complete': {
          if (typeof m.id !== 'string') return close(4400, 'Invalid message received');
          const r = running.get(m.id);
          running.delete(m.id);
          r?.stop();
          return;
        }
        default:
          return close(4400, 'Invalid message received');
      }
    },
    close() {
      closed = true;
      for (const r of running.values()) r.stop();
      running.clear();
    },
  };
}
