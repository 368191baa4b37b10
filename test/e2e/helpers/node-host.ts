/**
 * The playground's node host as a user runs it: the real `mockyard` CLI (dist/node/cli.js) with
 * playground/mockyard.config.mjs. The config, the shared module and the mocks folder are copied
 * under test-artifacts/ (inside the package, so the config's `import 'mockyard'` resolves to this
 * package) — writes land in the copy, never in playground/mocks.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdir, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../../', import.meta.url));

export interface NodeHost {
  url: string;
  /** Folder holding the copy (its mocks/ is what the CLI serves and writes). */
  dir: string;
  close(): Promise<void>;
}

/** `name`: the folder under test-artifacts/ (one per host, so hosts never share files or events). */
export async function startNodeHost(name = 'node-host'): Promise<NodeHost> {
  const dir = `${repo}test-artifacts/${name}/`;
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await cp(`${repo}playground/mockyard.config.mjs`, `${dir}mockyard.config.mjs`);
  await cp(`${repo}playground/shared`, `${dir}shared`, { recursive: true });
  await cp(`${repo}playground/mocks`, `${dir}mocks`, { recursive: true });
  const child: ChildProcess = spawn(process.execPath, [`${repo}dist/node/cli.js`, '--config', `${dir}mockyard.config.mjs`, '--port', '0', '--log-level', 'warn'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(output);
      if (m) resolve(m[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    child.on('exit', (code) => reject(new Error(`mockyard CLI exited with ${code}:\n${output}`)));
  });
  return {
    url,
    dir,
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}
