/**
 * `defineConfig`: the shape of `mockyard.config.{js,mjs,ts}` (read by the `mockyard` CLI).
 * An identity function; it only gives editors (and `tsc`) the types.
 *
 *   // mockyard.config.mjs
 *   import { defineConfig } from 'mockyard';
 *   export default defineConfig({
 *     mock: { endpointPrefix: '/api', fsDir: './mocks' },   // fsDir relative to this file
 *     tracker: { appId: 'my-app' },                          // optional event collector
 *     port: 3000,
 *   });
 */
import type { LogLevel } from './core/logger.js';
import type { MockApiOptions } from './engine/mock-api-options.js';
import type { CollectorOptions } from './tracker/types.js';

export interface MockyardConfig<Api = {}> {
  /**
   * Mock API options (`createMockApi`). A relative `fsDir` resolves against the config file's
   * folder. `Api`: the types `mockyard export --types` writes (docs/contract.md).
   */
  mock?: MockApiOptions<Api>;
  /** Event collector options (`createCollector`); omit (or `false`) for no collector. */
  tracker?: CollectorOptions | false;
  /** Port (default 3000; 0 picks a free one). The `--port` flag wins. */
  port?: number;
  /** Interface (default 127.0.0.1). The `--host` flag wins. */
  host?: string;
  /** Log level of the server's own messages (default `info`). */
  logLevel?: LogLevel;
  /**
   * Devtools admin API at `/_mockyard/api/`: on by default on a loopback host; elsewhere
   * `{ token }` (clients send `Authorization: Bearer <token>`); `false` turns it off.
   */
  devtools?: boolean | { token?: string };
}

/** A config function (sync or async), as the default export may also be. */
export type MockyardConfigFn<Api = {}> = () => MockyardConfig<Api> | Promise<MockyardConfig<Api>>;

/**
 * Not generic in the config on purpose: the parameter's type is the config type itself, so a
 * misspelt key in an object literal (`prot`, `mock.fsdir`, `pagination.GET.limt`, a handler's
 * `delya`) is a compile error at every depth (a generic `T extends MockyardConfig` would accept
 * extra keys). `Api` (given, never inferred) types the handlers and the store (docs/contract.md).
 */
export function defineConfig<Api = {}>(config: MockyardConfigFn<Api>): MockyardConfigFn;
export function defineConfig<Api = {}>(config: MockyardConfig<Api>): MockyardConfig;
export function defineConfig(config: MockyardConfig | MockyardConfigFn): MockyardConfig | MockyardConfigFn {
  return config;
}
