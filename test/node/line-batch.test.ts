/**
 * The CLI's output lines are written together: the lines queued before the batch's timer reach
 * the stream in one write, in order; `flush()` and a full batch write at once. Through the built CLI
 * as a real process: every request's log line is printed once, and the lines of the requests
 * answered just before a SIGTERM are printed before its "closing" line (flushed on exit).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { lineBatch } from '../../src/node/line-batch.js';
import { compileSources } from '../helpers/built-src.js';
import { startCli, stopCliProcesses } from '../helpers/cli-process.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

describe('lineBatch', () => {
  it('writes the lines queued before its timer in one write, in order; flush() writes at once', () => {
    const writes: string[] = [];
    const timers: (() => void)[] = [];
    const batch = lineBatch({ write: (chunk: string) => (writes.push(chunk), true) } as never, (run) => timers.push(run));
    batch.write('one');
    batch.write('two');
    batch.write('three');
    expect(writes).toEqual([]);
    expect(timers).toHaveLength(1);
    timers.shift()!();
    expect(writes).toEqual(['one\ntwo\nthree\n']);
    batch.write('four');
    batch.flush();
    expect(writes).toEqual(['one\ntwo\nthree\n', 'four\n']);
    timers.shift()!();
    expect(writes).toHaveLength(2);
  });

  it('writes at once past 64 KiB queued', () => {
    const writes: string[] = [];
    const batch = lineBatch({ write: (chunk: string) => (writes.push(chunk), true) } as never, () => {});
    const line = 'x'.repeat(1023);
    for (let i = 0; i < 64; i++) batch.write(line);
    expect(writes).toEqual([]);
    batch.write('last');
    expect(writes).toEqual([`${line}\n`.repeat(64) + 'last\n']);
  });
});

let cli: string;
beforeAll(() => {
  cli = join(compileSources('line-batch'), 'node', 'cli.js');
}, 120_000);

afterEach(async () => {
  await stopCliProcesses();
  await removeTempDirs();
});

describe('the request log of the CLI process', () => {
  it('prints one line per request, and the last ones before the SIGTERM line', async () => {
    const dir = await makeTempDir();
    await mkdir(join(dir, 'mocks'));
    const users = Array.from({ length: 40 }, (_, i) => ({ id: i + 1, name: `user ${i + 1}` }));
    await writeFile(join(dir, 'mocks', 'users.json'), JSON.stringify(users));
    const p = await startCli(cli, ['--fs-dir', 'mocks', '--prefix', '/api', '--port', '0'], dir);
    const answers = await Promise.all(users.map((u) => fetch(`${p.url}/api/users/${u.id}`).then((r) => r.json())));
    expect(answers).toEqual(users);
    const exited = new Promise((r) => p.child.once('exit', r));
    p.child.kill('SIGTERM');
    await exited;
    const out = p.output();
    for (const u of users) expect(out.match(new RegExp(`GET +/api/users/${u.id} +200`, 'g')), `/api/users/${u.id}`).toHaveLength(1);
    const closing = out.indexOf('SIGTERM, closing');
    expect(closing).toBeGreaterThan(out.lastIndexOf('/api/users/'));
  });
});
