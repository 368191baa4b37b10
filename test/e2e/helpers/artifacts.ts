/** Screenshots of the playground go to test-artifacts/ at the repository root (gitignored). */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ARTIFACTS_DIR = fileURLToPath(new URL('../../../test-artifacts/', import.meta.url));

export function artifact(name: string): string {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  return `${ARTIFACTS_DIR}${name}`;
}

/** A full-page screenshot from the top (the header is sticky). */
export async function screenshot(page: { evaluate(fn: () => void): Promise<unknown>; screenshot(o: { path: string; fullPage: boolean }): Promise<unknown> }, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: artifact(name), fullPage: true });
}
