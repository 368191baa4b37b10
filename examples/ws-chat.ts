/**
 * Example: a WebSocket chat with rooms, and a REST endpoint that pushes to it.
 *
 *   createMockApi({
 *     endpointPrefix: '/api',
 *     enableWs: true,
 *     wsHandlers: [chatHandler],
 *     handlers: [announceHandler],
 *   });
 *
 * Client: new WebSocket('ws://localhost:3000/api/chat/general?name=ann')
 *   send {"type":"say","text":"hi"}     → everyone in the room gets {"type":"said",...}
 *   send {"type":"join","room":"dev"}   → switches room
 * POST /api/announce {"text":"deploy at 5"} → every chat client gets {"type":"announcement",...}
 */
import type { RestHandler, WsConnection, WsHandler } from 'mockyard';

type ChatMessage = { type: 'say'; text: string } | { type: 'join'; room: string };

function nameOf(conn: WsConnection): string {
  const name = conn.query.name;
  return (Array.isArray(name) ? name[0] : name) ?? `guest-${conn.id.slice(0, 4)}`;
}

export const chatHandler: WsHandler = {
  pattern: '/chat/{room}',
  heartbeat: 30_000, // ping every 30 s; a client missing two pongs is dropped

  onConnect(conn) {
    conn.data.room = conn.params.room;
    conn.join(conn.params.room);
    conn.send({ type: 'welcome', id: conn.id, room: conn.params.room });
    conn.broadcast({ type: 'joined', name: nameOf(conn) }, { room: conn.params.room });
  },

  onMessage(conn, message) {
    // JSON text frames arrive parsed; other text as a string, binary frames as bytes.
    if (typeof message !== 'object' || message === null || message instanceof Uint8Array) {
      conn.send({ type: 'error', message: 'send JSON' });
      return;
    }
    const msg = message as ChatMessage;
    const room = conn.data.room as string;
    if (msg.type === 'say') {
      conn.broadcast({ type: 'said', name: nameOf(conn), text: msg.text }, { room, includeSelf: true });
    } else if (msg.type === 'join') {
      conn.leave(room);
      conn.join(msg.room);
      conn.data.room = msg.room;
      conn.send({ type: 'welcome', id: conn.id, room: msg.room });
    }
  },

  onClose(conn) {
    conn.broadcast({ type: 'left', name: nameOf(conn) }, { room: conn.data.room as string });
  },

  onError(conn, error) {
    conn.send({ type: 'error', message: error instanceof Error ? error.message : String(error) });
  },
};

/** REST → WebSocket: POST /api/announce pushes to every chat client. */
export const announceHandler: RestHandler = {
  pattern: '/announce',
  method: 'POST',
  authenticate: true,
  handle(req, res) {
    const { text } = (req.body ?? {}) as { text?: string };
    const delivered = req.app.ws.broadcast('/chat/{room}', { type: 'announcement', text });
    res.status(202).json({ delivered });
  },
};
