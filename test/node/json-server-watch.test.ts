/**
 * The built `mockyard` command (dist/) on a real port, with real routes.json and middleware files
 * edited on disk while it runs: the next request follows the new rule or middleware; a file that
 * breaks (not JSON, a middleware that throws on load) keeps the old one serving and prints an
 * error naming the file; the next good save is taken. A request in flight while a file changes
 * finishes on what it started with (json-server 0.17.4, measured: it restarts its server and the
 * in-flight request gets an empty reply).
 */
import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startCli, stopCliProcesses, type CliProcess } from '../helpers/cli-process.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

const cli = resolve('dist/node/cli.js');
beforeAll(() => {
  if (!existsSync(cli)) throw new Error('npm run build first: this test runs the built CLI (dist/node/cli.js)');
});
afterEach(async () => {
  await stopCliProcesses();
  await removeTempDirs();
});

const DB = { posts: [{ id: 1, title: 'one' }, { id: 2, title: 'two' }] };

/** Saves as editors do: a temp file renamed over the old one. */
async function save(dir: string, name: string, text: string): Promise<void> {
  const tmp = join(dir, `.${name}.tmp`);
  await writeFile(tmp, text);
  await rename(tmp, join(dir, name));
}

/** Polls `probe` until it returns true (an edit is picked up after the watch event settles). */
async function until(probe: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the edit was not picked up within 10 s');
}

const title = async (url: string): Promise<string | number> => {
  const r = await fetch(url);
  return r.status === 200 ? ((await r.json()) as { title: string }).title : r.status;
};

async function start(files: Record<string, string>, args: string[]): Promise<{ dir: string; app: CliProcess }> {
  const dir = await makeTempDir();
  await writeFile(join(dir, 'db.json'), JSON.stringify(DB));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  const app = await startCli(cli, ['db.json', '--port', '0', '--watch', ...args], dir);
  return { dir, app };
}

describe('--watch on routes.json and middlewares (the built CLI)', () => {
  it('an edited routes.json is followed by the next request; a broken one keeps the old rules and names the file; the next good save is taken', async () => {
    const { dir, app } = await start({ 'routes.json': JSON.stringify({ '/api/*': '/$1' }) }, ['--routes', 'routes.json']);
    expect(await title(`${app.url}/api/posts/1`)).toBe('one');

    await save(dir, 'routes.json', JSON.stringify({ '/v2/*': '/$1', '/first': '/posts/1' }));
    await until(async () => (await title(`${app.url}/v2/posts/2`)) === 'two');
    expect(await title(`${app.url}/first`)).toBe('one');
    expect(await title(`${app.url}/api/posts/1`)).toBe(404); // the old rule is gone
    expect(await (await fetch(`${app.url}/__rules`)).json()).toEqual({ '/v2/*': '/$1', '/first': '/posts/1' });

    await save(dir, 'routes.json', '{ "/v3/*": "/$1" '); // mid-edit: not JSON
    await app.printed(/routes\.json: .*keeping the previous rules/);
    expect(app.output()).toContain(join(dir, 'routes.json'));
    expect(await title(`${app.url}/v2/posts/2`)).toBe('two'); // still served by the old rules
    expect(await title(`${app.url}/v3/posts/2`)).toBe(404);

    await save(dir, 'routes.json', JSON.stringify({ '/bad': 'no-slash' })); // JSON, but not a rule
    await app.printed(/mock\.routes\["\/bad"\].*keeping the previous rules/);
    expect(await title(`${app.url}/v2/posts/2`)).toBe('two');

    await save(dir, 'routes.json', JSON.stringify({ '/v3/*': '/$1' }));
    await until(async () => (await title(`${app.url}/v3/posts/2`)) === 'two');
    expect(app.child.exitCode).toBe(null);
  });

  it('an edited middleware (CommonJS and ES module) runs its new code; one that throws on load keeps the old one and names the file; fixing it is taken', async () => {
    const cjs = (v: string) => `module.exports = (req, res, next) => { res.header('X-Mw', '${v}'); next(); };\n`;
    const esm = (v: string) => `export default (req, res, next) => { res.header('X-Esm', '${v}'); next(); };\n`;
    const { dir, app } = await start({ 'mw.js': cjs('one'), 'other.mjs': esm('a') }, ['-m', 'mw.js', 'other.mjs']);
    const headers = async () => {
      const r = await fetch(`${app.url}/posts/1`);
      await r.arrayBuffer();
      return `${r.headers.get('x-mw')} ${r.headers.get('x-esm')}`;
    };
    expect(await headers()).toBe('one a');

    await save(dir, 'mw.js', cjs('two'));
    await until(async () => (await headers()) === 'two a');
    await save(dir, 'other.mjs', esm('b'));
    await until(async () => (await headers()) === 'two b');

    await save(dir, 'mw.js', "throw new Error('boom on load');\n");
    await app.printed(/mw\.js: boom on load — keeping its previous version/);
    expect(await headers()).toBe('two b');
    await save(dir, 'mw.js', 'module.exports = 42;\n');
    await app.printed(/mw\.js must export a function/);
    expect(await headers()).toBe('two b');

    await save(dir, 'mw.js', cjs('three'));
    await until(async () => (await headers()) === 'three b');
    expect(app.child.exitCode).toBe(null);
  });

  it('an edit written in place (as `echo >` and editors that overwrite do), to files in a subfolder, is taken too', async () => {
    const dir = await makeTempDir();
    await writeFile(join(dir, 'db.json'), JSON.stringify(DB));
    await mkdir(join(dir, 'config'));
    const mw = (v: string) => `module.exports = (req, res, next) => { res.header('X-Mw', '${v}'); next(); };\n`;
    await writeFile(join(dir, 'config', 'routes.json'), JSON.stringify({ '/api/*': '/$1' }));
    await writeFile(join(dir, 'config', 'mw.js'), mw('one'));
    const app = await startCli(cli, ['--watch', 'db.json', '--port', '0', '--routes', 'config/routes.json', '-m', 'config/mw.js'], dir);
    const probe = async (path: string) => {
      const r = await fetch(`${app.url}${path}`);
      const body = r.status === 200 ? ((await r.json()) as { title: string }).title : r.status;
      return `${body} ${r.headers.get('x-mw')}`;
    };
    expect(await probe('/api/posts/1')).toBe('one one');
    await writeFile(join(dir, 'config', 'routes.json'), JSON.stringify({ '/v2/*': '/$1' }));
    await until(async () => (await probe('/v2/posts/2')) === 'two one');
    expect(await probe('/api/posts/1')).toMatch(/^404 /); // the old rule is gone
    await writeFile(join(dir, 'config', 'mw.js'), mw('two'));
    await until(async () => (await probe('/v2/posts/2')) === 'two two');
    expect(app.child.exitCode).toBe(null);
  });

  it('a request in flight when a file changes finishes on the rules and middleware it started with', async () => {
    const slow = (v: string) => `module.exports = (req, res, next) => { res.header('X-Mw', '${v}'); if (req.query.slow) setTimeout(next, 1500); else next(); };\n`;
    const { dir, app } = await start({ 'routes.json': JSON.stringify({ '/api/*': '/$1' }), 'mw.js': slow('old') }, ['--routes', 'routes.json', '-m', 'mw.js']);
    const inFlight = fetch(`${app.url}/api/posts/1?slow=1`);
    await new Promise((r) => setTimeout(r, 200));
    await save(dir, 'routes.json', JSON.stringify({ '/v2/*': '/$1' }));
    await save(dir, 'mw.js', slow('new'));
    await until(async () => (await fetch(`${app.url}/v2/posts/1`)).headers.get('x-mw') === 'new');
    const r = await inFlight;
    expect(r.status).toBe(200);
    expect(r.headers.get('x-mw')).toBe('old');
    expect(((await r.json()) as { title: string }).title).toBe('one');
  });
});
