/**
 * Streamed answers in the page through `mockyard/browser`: SSE handlers (one gated by the test, so
 * event 2 is produced only after the page received event 1), an endless one whose `finally`
 * reports, an Express-style `res.write` stream, an NDJSON handler and a recorded `.sse` file, for Chromium's `EventSource` and
 * `fetch` streaming (`response.body.getReader()`).
 */
import { memoryFs, ndjson, sse, startWorker } from 'mockyard/browser';

const CHAT = 'delay: 0\ndata: {"choices":[{"delta":{"content":"Hel"}}]}\n\ndelay: 30\nid: 2\ndata: {"choices":[{"delta":{"content":"lo"}}]}\n\ndelay: 30\nid: 3\ndata: [DONE]\n\n';

/** Gates the test opens by name (`release('fetch')`), each a promise the handler awaits. */
const gates = new Map<string, { promise: Promise<void>; open: () => void }>();
function gate(name: string) {
  let g = gates.get(name);
  if (!g) {
    let open!: () => void;
    const promise = new Promise<void>((r) => (open = r));
    g = { promise, open };
    gates.set(name, g);
  }
  return g;
}
let endedWith: string | undefined;

const started = startWorker({
  mock: {
    endpointPrefix: '/api',
    fs: memoryFs({ 'chat.sse': CHAT }),
    logLevel: 'silent',
    handlers: [
      { pattern: '/gated/{name}', handle: (req) => sse(async function* () {
        yield { id: 1, data: 'one' };
        await gate(req.params.name).promise;
        yield { id: 2, event: 'last', data: { n: 2 } };
      }) },
      { pattern: '/written', handle: (_req, res) => {
        res.setHeader('Content-Type', 'text/event-stream');
        res.write('data: one\n\n');
        void gate('written').promise.then(() => res.end('data: two\n\n'));
      } },
      { pattern: '/rows', handle: () => ndjson(async function* () {
        yield { n: 1 };
        await gate('rows').promise;
        yield { n: 2 };
      }) },
      { pattern: '/endless', handle: () => sse(async function* ({ signal }) {
        try {
          for (let n = 1; ; n++) {
            yield { data: String(n) };
            await new Promise((r) => setTimeout(r, 10));
          }
        } finally {
          endedWith = signal.aborted ? 'aborted' : 'ended';
        }
      }) },
    ],
  },
  quiet: true,
});

Object.assign(window, {
  mockyard: {
    started: started.then(() => 'ok', (err: Error) => err.message),
    release: (name: string) => gate(name).open(),
    endedWith: () => endedWith,
  },
});
void started.then(() => (document.getElementById('status')!.textContent = 'ready'));
