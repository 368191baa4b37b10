/**
 * Reads a Server-Sent Events stream from a fetch Response (EventSource cannot send the bearer
 * token, and the page host answers in-process). Calls `onEvent(name, data)` for each event;
 * resolves when the stream ends. `signal` aborts the read.
 */
export async function readEventStream(res: Response, onEvent: (event: string, data: string) => void, signal: AbortSignal): Promise<void> {
  if (!res.ok || !res.body) throw new Error(`stream: ${res.status}`);
  const reader = res.body.pipeThrough(new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>).getReader();
  const stop = () => void reader.cancel().catch(() => {});
  signal.addEventListener('abort', stop, { once: true });
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let event = 'message';
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith('event:')) event = line.slice(6).trim();
          else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
        }
        if (data.length > 0) onEvent(event, data.join('\n'));
      }
    }
  } finally {
    signal.removeEventListener('abort', stop);
  }
}
