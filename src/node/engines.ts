/**
 * The node hosts' host (`serve`, middleware, Vite plugin, CLI): `createHost` (src/host/) with
 * Node's runtime (runtime.ts: the disk default, zlib, undici, PostgreSQL). Engines created from
 * options inherit the host's logger unless their options name one.
 */
import { createMockApi, type MockApi } from '../engine/create-mock-api.js';
import { createHost, type Host, type HostConfig } from '../host/create-host.js';
import { createCollector } from '../tracker/collector.js';
import type { EngineSources as Sources } from '../host/engine-set.js';
import type { MockApiOptions } from '../engine/mock-api-options.js';
import type { Collector, CollectorOptions } from '../tracker/types.js';
import { nodeRuntime } from './runtime.js';

/** `mock`: mock API options or a ready engine; `tracker`: collector options, `true` (appId `mockyard`) or an engine; `engines`: more engines, tried after the mock API. */
export type EngineSources = Sources<MockApiOptions, CollectorOptions>;

/** A host on Node's runtime. */
export function nodeHost(config: HostConfig): Promise<Host> {
  return createHost({ runtime: nodeRuntime, ...config });
}

/** `createMockApi` on Node's runtime: what the `mockyard` entry exports under Node (index.node.ts). */
export function createNodeMockApi<Api = {}>(options: MockApiOptions<Api>): MockApi<Api> {
  return createMockApi(options, nodeRuntime);
}

/** `createCollector` on Node's runtime (index.node.ts). */
export function createNodeCollector(options: CollectorOptions): Collector {
  return createCollector(options, nodeRuntime);
}
