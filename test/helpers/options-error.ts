/**
 * The start-up error of a mock API built with `options` (under `/api` over an empty memory Vfs,
 * silent), for the options tests of each surface (test/engine/<name>/options.test.ts): the
 * OptionsError's message, which names the option. Fails when nothing, or something else, is thrown.
 */
import { OptionsError } from '../../src/core/options.js';
import { createMockApi } from '../../src/engine/create-mock-api.js';
import { memoryFs } from '../../src/vfs/memory.js';

export function optionsError(options: Record<string, unknown>): string {
  try {
    const api = createMockApi({ endpointPrefix: '/api', fs: memoryFs(), logLevel: 'silent', ...options } as never);
    void api.close();
  } catch (err) {
    if (err instanceof OptionsError) return err.message;
    throw err;
  }
  throw new Error(`no OptionsError for ${JSON.stringify(options)}`);
}
