/**
 * `mockyard export --openapi FILE` with no SOURCE in a folder holding a mockyard.config.mjs: the
 * data and the server path are those `mockyard` serves there (the config's fsDir, under its
 * endpointPrefix), as docs/contract.md says. Before, the found config was ignored: the export
 * looked for ./mocks ("no such file or folder", exit 1) although `mockyard` serves ./data at /v1.
 * The built CLI, a real folder, and `mockyard` itself on 127.0.0.1 answering the exported path.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { afterEach, expect, it } from 'vitest';
import { startCli, stopCliProcesses } from '../helpers/cli-process.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

const CLI = resolve(import.meta.dirname, '../../dist/node/cli.js');

afterEach(async () => {
  await stopCliProcesses();
  await removeTempDirs();
});

it('no SOURCE: the config mockyard finds in the folder names the data and its server path', async () => {
  const root = await makeTempDir();
  await mkdir(join(root, 'data'));
  await writeFile(join(root, 'data', 'posts.json'), JSON.stringify([{ id: 1, title: 'one' }]));
  await writeFile(join(root, 'mockyard.config.mjs'), "export default { mock: { fsDir: './data', endpointPrefix: '/v1' } };\n");

  const run = await promisify(execFile)(process.execPath, [CLI, 'export', '--openapi', 'api.yaml'], { cwd: root }).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
  );
  expect(run.out).not.toContain('no such file');
  expect(run.code).toBe(0);
  const doc = parseYaml(await readFile(join(root, 'api.yaml'), 'utf8')) as { servers: Array<{ url: string }>; paths: Record<string, unknown> };
  expect(doc.servers).toEqual([{ url: '/v1' }]);
  expect(Object.keys(doc.paths)).toContain('/posts');

  // `mockyard` in the same folder serves that path.
  const served = await startCli(CLI, ['--port', '0'], root);
  const r = await fetch(`${served.url}${doc.servers[0]!.url}/posts`);
  expect(r.status).toBe(200);
  expect(await r.json()).toEqual([{ id: 1, title: 'one' }]);
});
