/**
 * Helpers for the handler-layer tests that go through `engine.handle(new Request(...))`.
 */
import { createMockApi } from '../../../src/engine/create-mock-api.js';
import type { MockApiOptions } from '../../../src/engine/mock-api-options.js';
import { memoryFs } from '../../../src/vfs/memory.js';

export type TestApi = ReturnType<typeof createMockApi>;

const opened: TestApi[] = [];

/** A mock API on '/api' over an in-memory filesystem, silent unless a logger is given. */
export function mockApi(options: Partial<MockApiOptions> = {}, files: Record<string, unknown> = {}): TestApi {
  const api = createMockApi({ endpointPrefix: '/api', fs: memoryFs(files as never), logLevel: 'silent', ...options });
  opened.push(api);
  return api;
}

/** Closes every API made by mockApi (call in afterEach). */
export async function closeApis(): Promise<void> {
  await Promise.all(opened.splice(0).map((a) => a.close?.()));
}

/** `api.handle` for a path (`/api/users/1`), with the response required (not forwarded). */
export async function call(api: TestApi, path: string, init?: RequestInit): Promise<Response> {
  const res = await api.handle(new Request(`http://localhost${path}`, init));
  if (!res) throw new Error(`${init?.method ?? 'GET'} ${path} was not handled (undefined)`);
  return res;
}

/** A promise with its resolve function exposed. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
