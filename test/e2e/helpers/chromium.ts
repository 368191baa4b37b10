/**
 * Real Chromium through playwright-core (the system package: `apt-get install -y chromium`), a
 * fresh profile per launch so no worker or IndexedDB survives from an earlier run.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** `extraArgs`: more Chromium switches (e.g. `--host-resolver-rules=MAP rebind.test 127.0.0.1`). */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'mockyard-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    args: [...ARGS, ...extraArgs],
    headless: true,
    viewport: { width: 1280, height: 860 },
  });
  return {
    context,
    async close() {
      await context.close().catch(() => {});
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
