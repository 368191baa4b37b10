/**
 * The recorder's HAR log in memory (`api.recorder.har()`) is bounded: past `keepInMemory` bytes
 * the oldest entries are dropped from it (a listener, e.g. the CLI's HAR file, saw every one) and
 * the log's comment says how many.
 */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/logger.js';
import type { RequestContext } from '../../../src/engine/context.js';
import { resolveProxy } from '../../../src/engine/proxy/options.js';
import { createRecorder } from '../../../src/engine/proxy/recorder.js';
import { memoryFs } from '../../../src/vfs/memory.js';

describe('the recorder\'s HAR log in memory', () => {
  it('keeps the latest entries within keepInMemory; listeners get every entry', async () => {
    const record = resolveProxy({ target: 'http://upstream.test', record: true }, 'mock.proxy')!.record!;
    const recorder = createRecorder({ record, vfs: memoryFs(), fsDir: '', logger: createLogger('silent'), keepInMemory: 10_000 });
    const seen: string[] = [];
    recorder.onEntry((e) => seen.push(e.request.url));
    for (let i = 0; i < 5; i++) {
      const ctx = { method: 'GET', subPath: `/n${i}`, search: '', pathname: `/api/n${i}`, answered() {} } as unknown as RequestContext;
      const response = recorder.onAnswer({ ctx, url: `http://upstream.test/api/n${i}`, requestHeaders: [], response: new Response('x'.repeat(3000), { headers: { 'content-type': 'text/plain' } }), started: performance.now() });
      await response.text();
      await recorder.settled();
    }
    expect(seen).toHaveLength(5);
    const log = recorder.har().log;
    expect(log.entries.map((e) => e.request.url)).toEqual(['http://upstream.test/api/n3', 'http://upstream.test/api/n4']);
    expect(log.comment).toMatch(/^3 earlier entries of this session are not kept in memory/);
  });
});
