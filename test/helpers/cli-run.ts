/**
 * Running the `mockyard` command in-process for tests: `runCli(argv, cwd)` collects its output;
 * servers it starts are stopped by `stopClis()` (call it in afterEach). `listFiles(dir)` lists the
 * files below a folder (relative, sorted) for tests that check what a command wrote.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { main, type CliResult } from '../../src/node/cli.js';

const running: CliResult[] = [];

export async function runCli(argv: string[], cwd: string): Promise<CliResult & { out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const result = await main(argv, { cwd, out: (l) => out.push(l), err: (l) => err.push(l) });
  if (result.stop) running.push(result);
  return { ...result, out: out.join('\n'), err: err.join('\n') };
}

/** Stops one server `runCli` started (before the test ends). */
export async function stopCli(result: CliResult): Promise<void> {
  const i = running.indexOf(result);
  if (i !== -1) running.splice(i, 1);
  await result.stop?.();
}

export async function stopClis(): Promise<void> {
  await Promise.all(running.splice(0).map((r) => r.stop!()));
}

export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) out.push(join(e.parentPath, e.name).slice(dir.length + 1));
  return out.sort();
}
