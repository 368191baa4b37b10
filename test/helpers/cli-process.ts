/**
 * The built `mockyard` command as a real process: `startCli(cliJs, args, cwd)` resolves once it
 * listens, with its URL, its output so far and `printed(text)` (resolves once `text` appeared).
 * `stopCliProcesses()` ends every process started (call it in afterEach).
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface CliProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  printed(text: string | RegExp): Promise<void>;
}

const children: ChildProcess[] = [];

export function startCli(cliJs: string, args: string[], cwd: string): Promise<CliProcess> {
  const child = spawn(process.execPath, [cliJs, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  const waiters = new Set<() => void>();
  const onData = (d: Buffer) => {
    out += d;
    for (const w of [...waiters]) w();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const printed = (text: string | RegExp) =>
    new Promise<void>((res) => {
      const check = () => {
        if (typeof text === 'string' ? out.includes(text) : text.test(out)) {
          waiters.delete(check);
          res();
        }
      };
      waiters.add(check);
      check();
    });
  return new Promise((res, rej) => {
    void printed('Press Ctrl+C').then(() => {
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)!;
      res({ child, url: m[1]!, output: () => out, printed });
    });
    child.once('exit', (code) => rej(new Error(`exited ${code}: ${out}`)));
  });
}

export async function stopCliProcesses(): Promise<void> {
  await Promise.all(
    children.splice(0).map(
      (c) =>
        new Promise<void>((res) => {
          if (c.exitCode !== null || c.signalCode !== null) return res();
          c.once('exit', () => res());
          c.kill('SIGTERM');
        }),
    ),
  );
}
