/**
 * The text/event-stream wire format (WHATWG HTML §9.2): one event as the lines a client parses.
 *
 *   { id: 7, event: 'tick', data: { n: 1 } }  →  "id: 7\nevent: tick\ndata: {\"n\":1}\n\n"
 *   { comment: 'keep-alive' }                   →  ": keep-alive\n\n"
 *   { retry: 3000 }                             →  "retry: 3000\n\n"
 *
 * `data` that is not a string is sent as JSON; a string with line breaks becomes one `data:` line
 * per line (the client joins them with "\n"). Line breaks in `id` / `event` would end the field
 * early and `\0` in `id` makes clients ignore it, so those are refused (TypeError) rather than
 * sent as a different stream.
 */

/** One server-sent event (msw's `ServerSentEventMessage` shape, plus `comment` and `delay`). */
export interface SseEvent {
  /** The event id (`Last-Event-ID` on reconnection). */
  id?: string | number;
  /** The event type (`addEventListener(type)`); absent = `message`. */
  event?: string;
  /** The payload: a string as is, anything else as JSON. */
  data?: unknown;
  /** The client's reconnection time in ms. */
  retry?: number;
  /** A comment line (`: …`), ignored by clients: keep-alives, notes. */
  comment?: string;
  /** Milliseconds to wait before this event is sent (scaled by the stream's `speed`). */
  delay?: number;
}

const LINE_BREAK = /\r\n|\r|\n/;

function field(name: string, value: string): string {
  if (LINE_BREAK.test(value)) throw new TypeError(`SSE ${name} must not contain a line break (got ${JSON.stringify(value)})`);
  return `${name}: ${value}\n`;
}

/** The data as the text after `data: ` (strings as they are, the rest as JSON). */
export function dataText(data: unknown): string {
  if (typeof data === 'string') return data;
  const json = JSON.stringify(data);
  return json === undefined ? String(data) : json;
}

/** The wire text of one event (ends with the blank line that dispatches it). A string is the data. */
export function formatSseEvent(input: SseEvent | string): string {
  const event: SseEvent = typeof input === 'string' ? { data: input } : input;
  let out = '';
  if (event.comment !== undefined) for (const line of String(event.comment).split(LINE_BREAK)) out += `: ${line}\n`;
  if (event.retry !== undefined) {
    if (!Number.isInteger(event.retry) || event.retry < 0) throw new TypeError(`SSE retry must be a non-negative integer (got ${JSON.stringify(event.retry)})`);
    out += `retry: ${event.retry}\n`;
  }
  if (event.id !== undefined) {
    const id = String(event.id);
    if (id.includes('\0')) throw new TypeError('SSE id must not contain NUL');
    out += field('id', id);
  }
  if (event.event !== undefined) out += field('event', String(event.event));
  if (event.data !== undefined) for (const line of dataText(event.data).split(LINE_BREAK)) out += `data: ${line}\n`;
  return `${out}\n`;
}
