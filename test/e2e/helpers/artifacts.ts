/** Screenshots of the playground go to test-artifacts/ at the repository root (gitignored). */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ARTIFACTS_DIR = fileURLToPath(new URL('../../../test-artifacts/', import.meta.url));

export function artifact(name: string): string {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  return `${ARTIFACTS_DIR}${name}`;
}
