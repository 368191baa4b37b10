/**
 * What the mock API takes from the runtime it runs on, handed to it explicitly
 * (`createMockApi(options, runtime)`; hosts pass their runtime object, src/host/runtime.ts).
 * Every part is optional: without it the engine uses the web-standard way or asks for an option.
 */
import type { BoundedSyncInflate } from '../core/inflate-bounded.js';
import type { DefaultFsFactory, ScratchFsFactory } from '../vfs/default-fs.js';
import type { DocumentLoader } from './openapi-document/document-loader.js';
import type { UpstreamTransportFactory } from './upstream/transport.js';

/** Reads a HAR file given by path (the runtime's; Node: relative to `root`). Throws on a missing file or bad JSON. */
export type HarReader = (path: string, root: string | undefined) => unknown;

export interface MockApiRuntime {
  /** The filesystem for `fsDir` when the options give no `fs` (Node: a disk folder). Without it `fs` is required. */
  readonly defaultFs?: DefaultFsFactory;
  /** Scratch space for `req.app.fs` when the engine has no filesystem (Node: memoryFs). */
  readonly scratchFs?: ScratchFsFactory;
  /** How the proxy layer reaches its target (default: WHATWG fetch). */
  readonly upstream?: UpstreamTransportFactory;
  /** Reads `mock.openapi` given by a path (Node: YAML or JSON files). Without it the document object is required. */
  readonly openApiDocument?: DocumentLoader;
  /** Reads `mock.har` given by a path (Node: a JSON file). Without it the HAR object is required. */
  readonly readHar?: HarReader;
  /** A synchronous bounded inflate for compressed request bodies (Node: zlib); without it `DecompressionStream`. */
  readonly inflate?: BoundedSyncInflate;
}
