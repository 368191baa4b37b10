/**
 * Recorded streams as files: what is sent, in order, with the wait before each part.
 *
 * `name.sse` is standard text/event-stream text (what the client receives) with one extra field
 * per event, `delay: <ms>`: the wait since the previous event (since the head for the first).
 * Any SSE parser ignores a field it does not know (WHATWG HTML §9.2.6), so the file stays valid
 * SSE; the replay removes the `delay` lines and sends every other line of the event as written
 * (`id`, `event`, `data`, `retry`, comments), the event ending at its blank line:
 *
 *   delay: 0
 *   data: {"choices":[{"delta":{"content":"Hel"}}]}
 *
 *   delay: 42
 *   id: 2
 *   data: {"choices":[{"delta":{"content":"lo"}}]}
 *
 * `name.ndjson` is NDJSON: each line is sent as one chunk (with its "\n"); a line starting with
 * `//` is not sent: `// delay <ms>` is the wait before the next line, any other is a comment.
 * A plain NDJSON file (no `//` lines) replays at once.
 */

/** One part of a recorded stream: the wait before it (ms), the text sent, its SSE id if any. */
export interface RecordedPart {
  delay: number;
  text: string;
  id?: string;
}

const LINES = /\r\n|\r|\n/;
const DELAY_FIELD = /^delay:\s?(.*)$/;
const NDJSON_DELAY = /^\/\/\s*delay:?\s*(\d+(?:\.\d+)?)\s*(?:ms)?\s*$/;

function delayValue(raw: string): number {
  const n = Number(raw.trim());
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/** The events of a `.sse` file (a trailing wait without an event is a part with empty text). */
export function parseSseFile(text: string): RecordedPart[] {
  const parts: RecordedPart[] = [];
  let lines: string[] = [];
  let delay = 0;
  let id: string | undefined;
  const flush = () => {
    if (lines.length > 0) parts.push(id === undefined ? { delay, text: `${lines.join('\n')}\n\n` } : { delay, text: `${lines.join('\n')}\n\n`, id });
    else if (delay > 0) parts.push({ delay, text: '' });
    lines = [];
    delay = 0;
    id = undefined;
  };
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  for (const line of body.split(LINES)) {
    if (line === '') {
      flush();
      continue;
    }
    const d = DELAY_FIELD.exec(line);
    if (d) {
      delay += delayValue(d[1]!);
      continue;
    }
    if (line === 'id' || line.startsWith('id:')) id = line.slice(3).replace(/^ /, '');
    lines.push(line);
  }
  flush();
  return parts;
}

/** The lines of a `.ndjson` file, each with the wait before it. */
export function parseNdjsonFile(text: string): RecordedPart[] {
  const parts: RecordedPart[] = [];
  let delay = 0;
  for (const line of text.split(LINES)) {
    if (line.trim() === '') continue;
    if (line.startsWith('//')) {
      const d = NDJSON_DELAY.exec(line);
      if (d) delay += delayValue(d[1]!);
      continue;
    }
    parts.push({ delay, text: `${line}\n` });
    delay = 0;
  }
  if (delay > 0) parts.push({ delay, text: '' });
  return parts;
}

/** A recorded SSE stream as a `.sse` file (events as received, each with its `delay`). */
export function formatSseFile(parts: readonly RecordedPart[]): string {
  let out = '';
  for (const p of parts) {
    const lines = p.text.split(LINES).filter((l) => l !== '');
    out += `delay: ${Math.round(p.delay)}\n${lines.map((l) => `${l}\n`).join('')}\n`;
  }
  return out;
}

/** A recorded NDJSON stream as a `.ndjson` file (`// delay` before each line that waited). */
export function formatNdjsonFile(parts: readonly RecordedPart[]): string {
  let out = '';
  for (const p of parts) {
    const ms = Math.round(p.delay);
    if (ms > 0) out += `// delay ${ms}\n`;
    const line = p.text.replace(/\r?\n$/, '');
    if (line !== '') out += `${line}\n`;
  }
  return out;
}

/** Which recorded-stream format a file path or media type names, if any. */
export type StreamFormat = 'sse' | 'ndjson';

const STREAM_EXTENSION = /\.(sse|ndjson)$/i;

/** Whether a file path names a recorded stream (the streams layer's fast path: no string built). */
export function isStreamPath(path: string): boolean {
  return STREAM_EXTENSION.test(path);
}

export function streamFormatOfPath(path: string): StreamFormat | undefined {
  const m = STREAM_EXTENSION.exec(path);
  if (m === null) return undefined;
  return m[1]!.length === 3 ? 'sse' : 'ndjson';
}
