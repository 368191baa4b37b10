/**
 * `mockyard record --target URL --fs-dir DIR [--overwrite] [--har FILE]`: a real upstream, the
 * CLI's server, real files; then `mockyard --fs-dir DIR` replays them with the upstream gone.
 */
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildConfig } from '../../src/node/cli.js';
import { runCli, stopCli, stopClis } from '../helpers/cli-run.js';
import { harErrors } from '../helpers/har-schema.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';
import { closeUpstreams, startUpstream } from '../helpers/upstream.js';

const run = runCli;

afterEach(async () => {
  await stopClis();
  await closeUpstreams();
  await removeTempDirs();
});

describe('mockyard record', () => {
  it('records what it forwards, keeps the HAR log next to the folder, and plain serving replays it', async () => {
    const upstream = await startUpstream((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ path: req.url }));
    });
    const root = await makeTempDir();
    await mkdir(join(root, 'mocks'));
    await writeFile(join(root, 'mocks', 'kept.json'), '{"hand":"written"}');
    const rec = await run(['record', '--target', upstream.url, '--fs-dir', 'mocks', '--port', '0', '--log-level', 'warn'], root);
    expect(rec.code).toBeUndefined();
    const base = rec.server!.url;
    expect(await (await fetch(`${base}/api/users/7`, { headers: { authorization: 'Bearer secret-token' } })).json()).toEqual({ path: '/api/users/7' });
    expect(await (await fetch(`${base}/api/kept`)).json()).toEqual({ path: '/api/kept' }); // not served from the file while recording
    await stopCli(rec);

    expect(JSON.parse(await readFile(join(root, 'mocks', 'users', '7.json'), 'utf8'))).toEqual({ path: '/api/users/7' });
    expect(JSON.parse(await readFile(join(root, 'mocks', 'kept.json'), 'utf8'))).toEqual({ hand: 'written' }); // no --overwrite
    const harText = await readFile(join(root, 'mocks.har'), 'utf8');
    expect(harText).not.toContain('secret-token');
    const har = JSON.parse(harText);
    expect(harErrors(har)).toEqual([]);
    expect(har.log.entries).toHaveLength(2);

    await upstream.close();
    const replay = await run(['--fs-dir', 'mocks', '--port', '0', '--log-level', 'silent'], root);
    expect(await (await fetch(`${replay.server!.url}/api/users/7`)).json()).toEqual({ path: '/api/users/7' });
  });

  it('--overwrite replaces existing files; --har chooses the log file', async () => {
    const upstream = await startUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"fresh":true}');
    });
    const root = await makeTempDir();
    await mkdir(join(root, 'm'));
    await writeFile(join(root, 'm', 'kept.json'), '{"hand":"written"}');
    const rec = await run(['record', '--target', upstream.url, '--fs-dir', 'm', '--overwrite', '--har', 'out/session.har', '--port', '0', '--log-level', 'silent'], root);
    await mkdir(join(root, 'out'));
    await fetch(`${rec.server!.url}/api/kept`);
    await stopCli(rec);
    expect(JSON.parse(await readFile(join(root, 'm', 'kept.json'), 'utf8'))).toEqual({ fresh: true });
    expect(JSON.parse(await readFile(join(root, 'out', 'session.har'), 'utf8')).log.entries).toHaveLength(1);
  });

  it('a second session adds its entries to the HAR log already there; a file there that is not one is moved aside', async () => {
    const upstream = await startUpstream((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ url: req.url }));
    });
    const root = await makeTempDir();
    const session = async (path: string, extra: string[] = []) => {
      const rec = await run(['record', '--target', upstream.url, '--fs-dir', 'm', '--port', '0', '--log-level', 'silent', ...extra], root);
      await fetch(`${rec.server!.url}${path}`);
      await stopCli(rec);
      return JSON.parse(await readFile(join(root, 'm.har'), 'utf8'));
    };
    expect((await session('/api/one')).log.entries.map((e: any) => new URL(e.request.url).pathname)).toEqual(['/api/one']);
    const second = await session('/api/two');
    expect(second.log.entries.map((e: any) => new URL(e.request.url).pathname)).toEqual(['/api/one', '/api/two']);
    expect(harErrors(second)).toEqual([]);
    expect((await session('/api/three', ['--overwrite'])).log.entries).toHaveLength(1);
    await writeFile(join(root, 'm.har'), 'not a HAR');
    expect((await session('/api/four')).log.entries).toHaveLength(1);
    const aside = (await readdir(root)).filter((f) => f.startsWith('m.har.') && f.endsWith('.bak'));
    expect(aside).toHaveLength(1);
    expect(await readFile(join(root, aside[0]!), 'utf8')).toBe('not a HAR');
  });

  it('the HAR log grows by appends (the file is not rewritten per entry), is a valid log after each, and a log cut short keeps its whole entries', async () => {
    const upstream = await startUpstream((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ url: req.url }));
    });
    const root = await makeTempDir();
    const file = join(root, 'm.har');
    const rec = await run(['record', '--target', upstream.url, '--fs-dir', 'm', '--port', '0', '--log-level', 'silent'], root);
    const paths = async () => (JSON.parse(await readFile(file, 'utf8')) as any).log.entries.map((e: any) => new URL(e.request.url).pathname);
    await fetch(`${rec.server!.url}/api/one`);
    await expect.poll(paths).toEqual(['/api/one']);
    const inode = (await stat(file)).ino;
    await fetch(`${rec.server!.url}/api/two`);
    await expect.poll(paths).toEqual(['/api/one', '/api/two']);
    await fetch(`${rec.server!.url}/api/three`);
    await expect.poll(paths).toEqual(['/api/one', '/api/two', '/api/three']);
    expect((await stat(file)).ino).toBe(inode); // written in place: appended, not replaced
    await stopCli(rec);
    expect(harErrors(JSON.parse(await readFile(file, 'utf8')))).toEqual([]);

    // A crash in the middle of an append: the next session keeps every whole entry.
    const text = await readFile(file, 'utf8');
    await writeFile(file, `${text.slice(0, text.lastIndexOf('\n]}}'))},\n{"startedDateTime":"2026-`);
    const next = await run(['record', '--target', upstream.url, '--fs-dir', 'm', '--port', '0', '--log-level', 'silent'], root);
    await fetch(`${next.server!.url}/api/four`);
    await stopCli(next);
    expect(await paths()).toEqual(['/api/one', '/api/two', '/api/three', '/api/four']);
    expect(harErrors(JSON.parse(await readFile(file, 'utf8')))).toEqual([]);
  });

  it('usage errors: record without --target, record-only flags without record', async () => {
    const root = await makeTempDir();
    expect((await run(['record', '--fs-dir', 'm'], root)).err).toMatch(/record needs --target/);
    expect((await run(['record', '--target', 'staging'], root)).code).toBe(2);
    expect((await run(['--overwrite'], root)).err).toMatch(/--overwrite belongs to "mockyard record"/);
    const { config, har } = await buildConfig(['--target', 'http://h.example', '--fs-dir', 'm'], root, {}, 'record');
    expect(config.mock!.proxy).toMatchObject({ target: 'http://h.example', record: { overwrite: false, serveFiles: false } });
    expect(har).toBe(join(root, 'm.har'));
  });
});
