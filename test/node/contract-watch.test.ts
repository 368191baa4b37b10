/**
 * Keeping the types fresh: `mockyard export … --types FILE --watch` (the built CLI) and the Vite
 * plugin's `types` option (a real Vite dev server) write the file at start and again when the
 * data (or the OpenAPI document) changes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createServer as createViteServer } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import { mockyard } from '../../src/node/vite.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

const CLI = resolve(import.meta.dirname, '../../dist/node/cli.js');
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
  await removeTempDirs();
});

/** Resolves once `file` holds `text` (re-read on every poll; the test's own timeout bounds it). */
async function fileContains(file: string, text: string): Promise<string> {
  for (;;) {
    const content = await readFile(file, 'utf8').catch(() => '');
    if (content.includes(text)) return content;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const DATA = { todos: [{ id: 1, title: 'Write' }] };
const CHANGED = { todos: [{ id: 1, title: 'Write', done: true }], notes: [{ id: 'n1', text: 'x' }] };

describe('types kept fresh', () => {
  it('export --watch rewrites the types when db.json changes', async () => {
    const root = await makeTempDir();
    await writeFile(join(root, 'db.json'), JSON.stringify(DATA));
    const child: ChildProcess = spawn(process.execPath, [CLI, 'export', 'db.json', '--types', 'api.d.ts', '--watch'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    cleanups.push(async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
    });
    await fileContains(join(root, 'api.d.ts'), 'export interface Todo {');
    while (!out.includes('watching')) await new Promise((r) => setTimeout(r, 50));
    await writeFile(join(root, 'db.json'), JSON.stringify(CHANGED));
    const text = await fileContains(join(root, 'api.d.ts'), 'export interface Note {');
    expect(text).toContain('  done: boolean;');
    expect(child.exitCode).toBeNull(); // still watching
  }, 60_000);

  it("the Vite plugin's types option writes the .d.ts at start and after a change of the data", async () => {
    const root = await makeTempDir();
    await writeFile(join(root, 'db.json'), JSON.stringify(DATA));
    await writeFile(join(root, 'index.html'), '<!doctype html><title>app</title>');
    const vite = await createViteServer({
      root,
      configFile: false,
      logLevel: 'silent',
      server: { port: 0, host: '127.0.0.1' },
      plugins: [mockyard({ mock: { endpointPrefix: '/api', db: 'db.json', preset: 'json-server', logLevel: 'silent' }, types: 'src/api.d.ts', logLevel: 'silent' })],
    });
    cleanups.push(() => vite.close());
    await vite.listen();
    expect(await readFile(join(root, 'src', 'api.d.ts'), 'utf8')).toContain('export interface Todo {');
    await writeFile(join(root, 'db.json'), JSON.stringify(CHANGED));
    expect(await fileContains(join(root, 'src', 'api.d.ts'), 'export interface Note {')).toContain('"GET /notes/:id"');
  }, 60_000);

  it("the Vite plugin's types option with an OpenAPI document (mock.openapi, no data): the document's types, written again when it changes", async () => {
    const root = await makeTempDir();
    const doc = JSON.parse(await readFile(resolve(import.meta.dirname, '../fixtures/openapi/train-travel-3.1.json'), 'utf8'));
    await writeFile(join(root, 'openapi.json'), JSON.stringify(doc));
    // Before, the plugin refused to start: 'the Vite option "types" writes the types of mock.db or mock.fsDir'.
    const vite = await createViteServer({
      root,
      configFile: false,
      logLevel: 'silent',
      server: { port: 0, host: '127.0.0.1' },
      plugins: [mockyard({ mock: { endpointPrefix: '/api', openapi: './openapi.json', logLevel: 'silent' }, types: 'src/api.d.ts', logLevel: 'silent' })],
    });
    cleanups.push(() => vite.close());
    await vite.listen();
    const first = await readFile(join(root, 'src', 'api.d.ts'), 'utf8');
    expect(first).toContain('export interface Booking {');
    expect(first).toContain('"GET /bookings/{bookingId}"');
    doc.components.schemas.Coupon = { type: 'object', properties: { code: { type: 'string' } } };
    await writeFile(join(root, 'openapi.json'), JSON.stringify(doc));
    expect(await fileContains(join(root, 'src', 'api.d.ts'), 'export interface Coupon {')).toContain('export interface Booking {');
  }, 60_000);
});
