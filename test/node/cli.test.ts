/**
 * The `mockyard` CLI: in-process through `main()` (flags, config files, what it prints and
 * serves), and as a real process built with tsc (shebang, SIGTERM/SIGINT → exit 0, demo data).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildConfig, main, type CliIo, type CliResult } from '../../src/node/cli.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

const require = createRequire(import.meta.url);

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function io(cwd: string) {
  const out: string[] = [];
  const err: string[] = [];
  const value: CliIo = { cwd, out: (l) => out.push(l), err: (l) => err.push(l) };
  return { io: value, out, err };
}

const running: CliResult[] = [];
async function run(argv: string[], cwd: string) {
  const x = io(cwd);
  const result = await main(argv, x.io);
  if (result.stop) running.push(result);
  return { ...result, out: x.out.join('\n'), err: x.err.join('\n') };
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.stop!()));
  await removeTempDirs();
});

async function mocksDir(root: string, name = 'mocks'): Promise<string> {
  const dir = join(root, name);
  await mkdir(join(dir, 'users'), { recursive: true });
  await writeFile(join(dir, 'users', '1.json'), JSON.stringify({ id: 1, from: name }));
  return dir;
}

describe('flags', () => {
  it('--help prints usage and exits 0', async () => {
    const r = await run(['--help'], repo);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Usage: mockyard');
    expect(r.out).toContain('--fs-dir');
  });

  it('--version prints the package version', async () => {
    const pkg = JSON.parse(await readFile(join(repo, 'package.json'), 'utf8')) as { version: string };
    expect((await run(['--version'], repo)).out).toBe(pkg.version);
  });

  it.each([
    [['--nope'], /unknown option --nope/],
    [['--port', 'abc'], /--port must be an integer between 0 and 65535 \(got "abc"\)/],
    [['--port', '70000'], /--port must be an integer/],
    [['--delay=-5'], /--delay must be a number >= 0/],
    [['--prefix', 'api'], /--prefix must start with "\/"/],
    [['--log-level', 'loud'], /--log-level must be one of/],
    [['stray'], /unexpected argument "stray"/],
    [['--proxy', 'staging.example.com'], /--proxy must be an absolute http\(s\) URL/],
  ])('bad flags %j → clear message, exit 2', async (argv, message) => {
    const r = await run(argv, repo);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.err).toContain('mockyard --help');
  });

  it('flags win over the config; --fs-dir is relative to the working directory', async () => {
    const root = await makeTempDir();
    await writeFile(join(root, 'mockyard.config.mjs'), `export default { mock: { endpointPrefix: '/api', fsDir: './from-config', delay: 50 }, port: 4999, host: '0.0.0.0' };`);
    const { config } = await buildConfig(['--fs-dir', 'elsewhere', '--prefix', '/v1', '--prefix', '/v2', '--port', '0', '--host', '127.0.0.1', '--delay', '0'], root);
    expect(config.mock!.fsDir).toBe(join(root, 'elsewhere'));
    expect(config.mock!.endpointPrefix).toEqual(['/v1', '/v2']);
    expect(config.mock!.delay).toBe(0);
    expect(config.port).toBe(0);
    expect(config.host).toBe('127.0.0.1');
  });

  it('--proxy sets mock.proxy.target, keeping the config\'s other proxy options', async () => {
    const root = await makeTempDir();
    await writeFile(join(root, 'mockyard.config.mjs'), `export default { mock: { endpointPrefix: '/api', fsDir: './m', proxy: { target: 'http://old.example', timeout: 900 } } };`);
    const { config } = await buildConfig(['--proxy', 'https://staging.example.com/v2'], root);
    expect(config.mock!.proxy).toEqual({ target: 'https://staging.example.com/v2', timeout: 900 });
  });

  it('without config or flags serves ./mocks under /api on port 3000', async () => {
    const root = await makeTempDir();
    const { config, configFile } = await buildConfig([], root);
    expect(configFile).toBeUndefined();
    expect(config.mock).toMatchObject({ endpointPrefix: '/api', fsDir: join(root, 'mocks') });
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
  });
});

describe('init-worker', () => {
  it('writes mockServiceWorker.js into the folder, then reports it up to date', async () => {
    const root = await makeTempDir();
    const first = await run(['init-worker', 'public'], root);
    expect(first.code).toBe(0);
    expect(first.out).toBe(`wrote ${join(root, 'public', 'mockServiceWorker.js')} (msw ${require('msw/package.json').version})`);
    expect(await readFile(join(root, 'public', 'mockServiceWorker.js'), 'utf8')).toContain('addEventListener');
    expect((await run(['init-worker', 'public'], root)).out).toContain('is up to date');
    expect((await run(['init-worker', 'a', 'b'], root)).code).toBe(2);
  });
});

describe('config files', () => {
  it('finds mockyard.config.mjs in the cwd; a relative fsDir resolves against the config folder', async () => {
    const root = await makeTempDir();
    const cfgDir = join(root, 'config');
    await mocksDir(cfgDir, 'data');
    await writeFile(join(cfgDir, 'mockyard.config.mjs'), `export default { mock: { endpointPrefix: '/api', fsDir: './data', logLevel: 'silent' }, logLevel: 'silent' };`);
    // run from another folder with --config: fsDir still resolves against the config's folder
    const r = await run(['--config', 'config/mockyard.config.mjs', '--port', '0'], root);
    expect(r.code).toBeUndefined();
    const res = await fetch(`${r.server!.url}/api/users/1`);
    expect(await res.json()).toEqual({ id: 1, from: 'data' });
  });

  it('keeps an absolute fsDir; the config may default-export a function', async () => {
    const root = await makeTempDir();
    const abs = await mocksDir(await makeTempDir(), 'abs');
    await writeFile(join(root, 'mockyard.config.js'), `export default async () => ({ mock: { endpointPrefix: '/x', fsDir: ${JSON.stringify(abs)}, logLevel: 'silent' }, logLevel: 'silent' });`);
    const r = await run(['--port', '0'], root);
    expect(await (await fetch(`${r.server!.url}/x/users/1`)).json()).toEqual({ id: 1, from: 'abs' });
  });

  it('loads a mockyard.config.ts on Node 20 (types stripped with the project\'s Vite)', async () => {
    const root = join(repo, 'test-artifacts', `ts-config-${process.pid}`);
    await mkdir(root, { recursive: true });
    await mocksDir(root);
    await writeFile(join(root, 'mockyard.config.ts'), [
      "import type { MockyardConfig } from '../../src/define-config.js';",
      "const prefix: string = '/typed';",
      "const config: MockyardConfig = { mock: { endpointPrefix: prefix, fsDir: './mocks', logLevel: 'silent' }, logLevel: 'silent' };",
      'export default config;',
    ].join('\n'));
    const r = await run(['--port', '0'], root);
    expect(r.err).toBe('');
    expect(await (await fetch(`${r.server!.url}/typed/users/1`)).json()).toEqual({ id: 1, from: 'mocks' });
  });

  it('mounts the collector when the config has a tracker section', async () => {
    const root = await makeTempDir();
    await mocksDir(root);
    await writeFile(join(root, 'mockyard.config.mjs'), `export default { mock: { endpointPrefix: '/api', fsDir: './mocks', logLevel: 'silent' }, tracker: { appId: 'cli-test', logLevel: 'silent' } };`);
    const r = await run(['--port', '0'], root);
    expect(r.out).toContain('/_tracker');
    expect(r.out).toContain('event collector');
    const ping = await fetch(`${r.server!.url}/_tracker/ping`);
    expect(await ping.json()).toMatchObject({ ok: true, appId: 'cli-test' });
    expect((await fetch(`${r.server!.url}/api/users/1`)).status).toBe(200);
  });

  it('--tracker runs the collector without a config', async () => {
    const root = await makeTempDir();
    await mocksDir(root);
    const r = await run(['--tracker', '--port', '0', '--log-level', 'silent'], root);
    expect(await (await fetch(`${r.server!.url}/_tracker/ping`)).json()).toMatchObject({ ok: true, appId: 'mockyard' });
  });

  it('config errors name the option and exit 1', async () => {
    const root = await makeTempDir();
    await writeFile(join(root, 'mockyard.config.mjs'), `export default { mock: { endpointPrefix: '/api' }, prot: 3000 };`);
    const r = await run([], root);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/option "prot" is not a known option/);
    await writeFile(join(root, 'mockyard.config.mjs'), `export default 42;`);
    expect((await run([], root)).err).toMatch(/must be a config object/);
    expect((await run(['--config', 'missing.mjs'], root)).err).toMatch(/config file not found: .*missing\.mjs/);
  });

  it('several unknown keys are all named in one message, with the likely meant names', async () => {
    const root = await makeTempDir();
    await writeFile(join(root, 'mockyard.config.mjs'), `export default { prot: 3000, hots: 'x', colour: 1 };`);
    const r = await run([], root);
    expect(r.code).toBe(1);
    expect(r.err).toContain('options "prot", "hots", "colour" are not known options (did you mean "port" for "prot", "host" for "hots"?)');
    expect(r.err).toContain('(known: mock, tracker, port, host, logLevel, devtools)');
  });

  it('a busy port is reported clearly (exit 1)', async () => {
    const root = await makeTempDir();
    await mocksDir(root);
    const first = await run(['--port', '0', '--log-level', 'silent'], root);
    const port = first.server!.port;
    const second = await run(['--port', String(port), '--log-level', 'silent'], root);
    expect(second.code).toBe(1);
    expect(second.err).toMatch(new RegExp(`Port ${port} on 127.0.0.1 is already in use`));
  });
});

describe('prints what it serves', () => {
  it('base URL with the chosen port, prefixes and folders', async () => {
    const root = await makeTempDir();
    const dir = await mocksDir(root);
    const r = await run(['--fs-dir', 'mocks', '--port', '0'], root);
    const url = r.server!.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(r.out).toContain(`listening on ${url}`);
    expect(r.out).toContain(`${url}/api  →  files in ${dir}`);
  });
});

// ---------------------------------------------------------------------------------------------
// The built command as a real process.

const built = join(repo, 'test-artifacts', 'cli-dist');
const cli = join(built, 'node', 'cli.js');
const children: ChildProcess[] = [];

beforeAll(() => {
  // tsc emits even when another file in the tree has a type error; the check below is what counts.
  spawnSync(process.execPath, [join(repo, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(repo, 'tsconfig.build.json'), '--outDir', built, '--declaration', 'false', '--sourceMap', 'false'], { cwd: repo, stdio: 'ignore' });
}, 120_000);

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

function start(args: string[], cwd = repo): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, [cli, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d));
  child.stderr!.on('data', (d: Buffer) => (out += d));
  return new Promise((resolve, reject) => {
    const onData = () => {
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m && out.includes('Press Ctrl+C')) {
        child.stdout!.off('data', onData);
        resolve({ child, url: m[1]!, output: () => out });
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));
}

describe('built CLI process', () => {
  it('starts with a shebang, serves the demo folder and exits 0 on SIGTERM', async () => {
    expect((await readFile(cli, 'utf8')).startsWith('#!/usr/bin/env node\n')).toBe(true);
    const { child, url } = await start(['--fs-dir', 'playground/mocks', '--port', '0', '--log-level', 'warn']);
    const res = await fetch(`${url}/api/tasks`);
    expect(res.status).toBe(200);
    const tasks = (await res.json()) as unknown[];
    expect(tasks.length).toBe(Number(res.headers.get('x-total-count')));
    expect(tasks.length).toBeGreaterThanOrEqual(40);
    const png = await fetch(`${url}/api/uploads/logo.png`);
    expect(png.headers.get('content-type')).toBe('image/png');
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
  });

  // The config imports `mockyard` (the package itself, i.e. the repo's dist/ built by `prepare`).
  it.skipIf(!existsSync(join(repo, 'dist', 'index.js')))('serves the playground config of `npm start` (filters, paging, collector)', async () => {
    const { child, url, output } = await start(['--config', 'playground/mockyard.config.mjs', '--port', '0']);
    expect(output()).toContain(`${url}/_tracker  →  event collector`);
    expect(output()).toContain(`${url}/api  →  files in ${join(repo, 'playground', 'mocks')}`);
    const all = (await (await fetch(`${url}/api/tasks`)).json()) as Array<{ status: string; title: string }>;
    const res = await fetch(`${url}/api/tasks?status=doing&_limit=2&_sort=id&_order=desc`);
    const page = (await res.json()) as Array<{ id: number; status: string }>;
    expect(Number(res.headers.get('x-total-count'))).toBe(all.filter((t) => t.status === 'doing').length);
    expect(page.length).toBe(2);
    expect(page.every((t) => t.status === 'doing')).toBe(true);
    expect(page[0]!.id).toBeGreaterThan(page[1]!.id);
    const titled = (await (await fetch(`${url}/api/tasks?title=FLAKY`)).json()) as Array<{ title: string }>;
    expect(titled.length).toBe(all.filter((t) => t.title.toLowerCase().includes('flaky')).length);
    expect(titled.length).toBeGreaterThan(0);
    expect(await (await fetch(`${url}/_tracker/ping`)).json()).toMatchObject({ ok: true, appId: 'playground' });
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
  });

  it('exits 0 on SIGINT while a WebSocket-free keep-alive connection is open', async () => {
    const root = await makeTempDir();
    await mocksDir(root);
    const { child, url } = await start(['--port', '0'], root);
    await (await fetch(`${url}/api/users/1`)).text(); // leaves a keep-alive connection open
    child.kill('SIGINT');
    expect(await exited(child)).toBe(0);
  });

  it('a config with a syntax error names the file, line and column, with the line and a caret', async () => {
    const root = await makeTempDir();
    const file = join(root, 'mockyard.config.mjs');
    const runIn = () => spawnSync(process.execPath, [cli, '--port', '0'], { cwd: root, encoding: 'utf8' });
    await writeFile(file, `export default {\n  mock: { endpointPrefix: '/api' ;\n};\n`);
    const r = runIn();
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`mockyard: syntax error in ${file}:2:34: Unexpected token ';'`);
    expect(r.stderr).toContain(`  2 |   mock: { endpointPrefix: '/api' ;\n    | ${' '.repeat(33)}^`);
    // a CommonJS config
    const cjs = join(root, 'broken.cjs');
    await writeFile(cjs, `module.exports = {\n  port: ;\n};\n`);
    expect(spawnSync(process.execPath, [cli, '--config', 'broken.cjs'], { cwd: root, encoding: 'utf8' }).stderr).toContain(`syntax error in ${cjs}:2:9: Unexpected token ';'`);
    // an error thrown while the config runs
    await writeFile(file, `const base = '/api';\nexport default { mock: { endpointPrefix: bsae } };\n`);
    expect(runIn().stderr).toContain(`error while loading the config in ${file}:2:42: ReferenceError: bsae is not defined`);
    // a syntax error in a module the config imports
    await writeFile(join(root, 'shared.mjs'), 'export const prefix = ;\n');
    await writeFile(file, `import { prefix } from './shared.mjs';\nexport default { mock: { endpointPrefix: prefix } };\n`);
    expect(runIn().stderr).toContain(`syntax error in a module imported by ${file}: Unexpected token ';'`);
  });

  it('a .ts config with a syntax error names the file, line and column (transpiled with Vite on Node 20)', async () => {
    const root = join(repo, 'test-artifacts', `ts-bad-config-${process.pid}`);
    await mkdir(root, { recursive: true });
    const file = join(root, 'mockyard.config.ts');
    await writeFile(file, `const port: number = 0;\nconst prefix: string = ;\nexport default { port };\n`);
    const r = spawnSync(process.execPath, [cli], { cwd: root, encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`mockyard: syntax error in ${file}:2:24: Unexpected token`);
    expect(r.stderr).not.toMatch(/\u001b\[/); // no terminal colours
  });

  it('--fs-dir naming a missing folder creates it at start-up, says so, and PUT/POST work at once', async () => {
    const root = await makeTempDir();
    const dir = join(root, 'data', 'mocks');
    const { child, url, output } = await start(['--fs-dir', 'data/mocks', '--port', '0'], root);
    expect(output()).toContain(`mockyard: created ${dir} (the mock folder did not exist)`);
    expect(output()).toContain(`${url}/api  →  files in ${dir}`);
    const put = await fetch(`${url}/api/users/1`, { method: 'PUT', body: '{"id":1}', headers: { 'content-type': 'application/json' } });
    expect(put.status).toBe(201);
    const post = await fetch(`${url}/api/posts`, { method: 'POST', body: '{"title":"x"}', headers: { 'content-type': 'application/json' } });
    expect(post.status).toBe(201);
    expect(JSON.parse(await readFile(join(dir, 'users', '1.json'), 'utf8'))).toEqual({ id: 1 });
    expect(await (await fetch(`${url}/api/users/1`)).json()).toEqual({ id: 1 });
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
  });

  it('bad flags exit 2 with a message on stderr', () => {
    const r = spawnSync(process.execPath, [cli, '--port', 'x'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--port must be an integer');
  });
});
