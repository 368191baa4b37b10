/**
 * The collector's WebSocket as the Events tab uses it: `push` messages only (event-collector
 * contract, section 6). `ready` settles once pushes are flowing — open (no key) or `auth_ok` (with
 * a key) — or once they never will (closed, refused, AUTH_WAIT_MS without an answer): the tab reads
 * the window only then, so every event stored after its read started arrives by push (no gap; the
 * merge drops what arrives both ways).
 */
import type { TrackerEvent } from '../../tracker/types.js';

const AUTH_WAIT_MS = 2_000;

export interface PushSocket {
  readonly ready: Promise<void>;
  close(): void;
}

export function openPushSocket(url: string, key: string, onEvents: (events: TrackerEvent[]) => void, onStatus: (open: boolean) => void): PushSocket {
  let settle = () => {};
  const ready = new Promise<void>((resolve) => (settle = resolve));
  const timer = setTimeout(() => settle(), AUTH_WAIT_MS);
  let ws: WebSocket;
  try {
    ws = new WebSocket(url);
  } catch {
    clearTimeout(timer);
    onStatus(false);
    settle();
    return { ready, close() {} };
  }
  const live = () => {
    clearTimeout(timer);
    onStatus(true);
    settle();
  };
  ws.onopen = () => {
    if (key) ws.send(JSON.stringify({ type: 'auth', key }));
    else live();
  };
  ws.onclose = () => {
    clearTimeout(timer);
    onStatus(false);
    settle();
  };
  ws.onmessage = (m) => {
    if (typeof m.data !== 'string') return;
    let msg: { type?: unknown; events?: unknown };
    try {
      msg = JSON.parse(m.data) as typeof msg;
    } catch {
      return;
    }
    if (msg.type === 'auth_ok') return live();
    if (msg.type !== 'push' || !Array.isArray(msg.events)) return;
    onEvents((msg.events as TrackerEvent[]).filter((e) => e && typeof e.id === 'string' && typeof e.timestamp === 'string'));
  };
  return {
    ready,
    close() {
      clearTimeout(timer);
      ws.onclose = null;
      ws.onmessage = null;
      ws.close();
      settle();
    },
  };
}
