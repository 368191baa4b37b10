/**
 * Streams through the built `mockyard` command as a real process, with the `eventsource` package:
 * a recorded `.sse` file in `mocks/` (no config: the default preset) and an SSE handler from a
 * config file, gated from outside the process (event 2 is produced only after the test, having
 * received event 1, POSTs /api/release: a CLI that batched the stream would never send event 1).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EventSource } from 'eventsource';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { compileSources } from '../helpers/built-src.js';
import { startCli, stopCliProcesses } from '../helpers/cli-process.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

let dist: string;
beforeAll(() => {
  dist = compileSources('streams-cli');
}, 120_000);

afterEach(async () => {
  await stopCliProcesses();
  await removeTempDirs();
});

const CHAT = 'delay: 0\ndata: {"choices":[{"delta":{"content":"Hel"}}]}\n\ndelay: 20\nid: 2\ndata: {"choices":[{"delta":{"content":"lo"}}]}\n\ndelay: 20\nid: 3\ndata: [DONE]\n\n';

/** Collects EventSource messages until `stop(data)` says so; `onEvent` sees each as it comes. */
function listen(url: string, stop: (data: string) => boolean, onEvent: (e: MessageEvent) => void = () => {}): Promise<string[]> {
  const es = new EventSource(url);
  const seen: string[] = [];
  return new Promise<string[]>((resolve, reject) => {
    const take = (e: MessageEvent) => {
      seen.push(`${e.type} ${e.lastEventId} ${e.data}`);
      onEvent(e);
      if (stop(e.data)) {
        es.close();
        resolve(seen);
      }
    };
    es.onmessage = take;
    es.addEventListener('last', take);
    es.onerror = () => {
      if (seen.length === 0) {
        es.close();
        reject(new Error(`EventSource ${url} failed before any event`));
      }
    };
  });
}

describe('streams from the mockyard CLI', () => {
  it('replays a recorded .sse file to the eventsource package', async () => {
    const dir = await makeTempDir();
    await mkdir(join(dir, 'mocks'));
    await writeFile(join(dir, 'mocks', 'chat.sse'), CHAT);
    const { url } = await startCli(join(dist, 'node', 'cli.js'), ['--port', '0'], dir);
    const got = await listen(`${url}/api/chat`, (d) => d === '[DONE]');
    expect(got).toEqual(['message  {"choices":[{"delta":{"content":"Hel"}}]}', 'message 2 {"choices":[{"delta":{"content":"lo"}}]}', 'message 3 [DONE]']);
  });

  it('streams a handler\'s events live (gated from outside the process)', async () => {
    const dir = await makeTempDir();
    await mkdir(join(dir, 'mocks'));
    await writeFile(join(dir, 'mockyard.config.mjs'), `
import { sse } from ${JSON.stringify(pathToFileURL(join(dist, 'index.js')).href)};
let open;
let gate = new Promise((r) => (open = r));
export default {
  mock: {
    endpointPrefix: '/api',
    fsDir: './mocks',
    handlers: [
      { pattern: '/gated', handle: () => sse(async function* () {
        yield { id: 1, data: 'one' };
        await gate;
        gate = new Promise((r) => (open = r));
        yield { id: 2, event: 'last', data: { n: 2 } };
      }) },
      { pattern: '/release', method: 'POST', handle: () => { open(); return { released: true }; } },
    ],
  },
};
`);
    const { url } = await startCli(join(dist, 'node', 'cli.js'), ['--port', '0'], dir);
    const got = await listen(`${url}/api/gated`, (d) => d === '{"n":2}', (e) => {
      if (e.data === 'one') void fetch(`${url}/api/release`, { method: 'POST' });
    });
    expect(got).toEqual(['message 1 one', 'last 2 {"n":2}']);
  });
});
