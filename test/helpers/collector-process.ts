/**
 * A collector in a real child process (crash and many-process tests): `buildForProcesses(name)`
 * compiles the sources once into `test-artifacts/<name>-dist` (tsc, about 2 s; each test file its
 * own folder, so files running in parallel never share one), and `startCollectorProcess()` runs
 * `serve({ tracker })` there on 127.0.0.1 port 0, resolving with its URL once it listens.
 * `stopCollectorProcesses()` (afterAll) SIGKILLs whatever is still running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileSources } from './built-src.js';

const children = new Set<ChildProcess>();

const CHILD = `import { serve } from './node/index.js';
const tracker = JSON.parse(process.argv[2]);
const server = await serve({ port: 0, host: '127.0.0.1', logLevel: 'silent', tracker });
process.stdout.write('LISTENING ' + server.url + '\\n');
process.on('SIGTERM', () => server.close().then(() => process.exit(0)));
`;

/** Compiles src/ into test-artifacts/<name>-dist (built-src.ts); returns that folder. */
export function buildForProcesses(name: string): string {
  const out = compileSources(name);
  writeFileSync(join(out, 'collector-child.mjs'), CHILD);
  return out;
}

export interface CollectorProcess {
  child: ChildProcess;
  url: string;
  /** stdout + stderr so far. */
  output(): string;
}

/** Starts `serve({ tracker: options })` in a child process built by buildForProcesses. */
export function startCollectorProcess(built: string, options: Record<string, unknown>, env: NodeJS.ProcessEnv = {}): Promise<CollectorProcess> {
  const child = spawn(process.execPath, [join(built, 'collector-child.mjs'), JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d));
  child.stderr!.on('data', (d: Buffer) => (out += d));
  return new Promise((resolvePromise, reject) => {
    const onData = () => {
      const m = /LISTENING (http:\/\/\S+)\n/.exec(out);
      if (m) {
        child.stdout!.off('data', onData);
        resolvePromise({ child, url: m[1]!, output: () => out });
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code, signal) => reject(new Error(`collector process exited (${code ?? signal}) before listening: ${out}`)));
  });
}

/** SIGKILL, and resolve once the process is gone. */
export function killHard(child: ChildProcess): Promise<void> {
  return new Promise((resolvePromise) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolvePromise();
    child.once('exit', () => resolvePromise());
    child.kill('SIGKILL');
  });
}

export async function stopCollectorProcesses(): Promise<void> {
  await Promise.all([...children].map(killHard));
}
