/**
 * `mockyard openapi.yaml`: the CLI's argument that is an OpenAPI document (YAML or JSON whose top
 * level has `openapi` or `swagger`; any other `.json` stays a json-server db). The document is
 * read once here (with the files it refers to) and handed to the engine as an object; it is
 * served under its first server URL's path (Swagger: `basePath`) unless `--prefix` is given,
 * from generated, stateful data (`--seed`), with no mock folder unless `--fs-dir` or a config
 * file names one (files there still win).
 */
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { MockApi } from '../engine/create-mock-api.js';
import { openApiResourcesOf } from '../engine/openapi-backend/resources-view.js';
import type { ResolvedMockApiOptions } from '../engine/options.js';
import type { MockApiOptions } from '../engine/mock-api-options.js';
import { readDocument } from '../engine/openapi-document/operations.js';
import { createDeref } from '../engine/openapi-document/refs.js';
import { isOpenApiDocument, loadDocumentFile } from './openapi-document.js';
import { plural } from './startup-map.js';

export interface OpenApiArgument {
  file: string;
  document: Record<string, unknown>;
  basePath: string;
}

const DOCUMENT_FILE = /\.(ya?ml|json)$/i;

/** Documents read from the command line, by the path the user gave. */
const documentNames = new WeakMap<object, string>();

/** How the start-up lines name a document: its path or URL, the file it was read from, or "(given in the config)". */
export function documentName(source: unknown): string {
  if (typeof source === 'string') return source;
  if (source instanceof URL) return source.href;
  return (source !== null && typeof source === 'object' && documentNames.get(source)) || '(given in the config)';
}

/**
 * What a mock API serves from its document, for the start-up map: the generated backend with its
 * seed, or undefined when the document only validates (`mock: false`, a proxy). How many items
 * each collection holds is not said here (a document's own examples give their count, not the
 * `count` option): `documentResources` lists what is really served.
 */
export function documentServing(options: ResolvedMockApiOptions): string | undefined {
  const openapi = options.openapi;
  if (!openapi || !(openapi.backend.mock ?? !options.proxy)) return undefined;
  const { seed, state } = openapi.backend;
  const kept = state === undefined ? '' : `, collections kept in ${typeof state === 'string' ? state : 'the given filesystem'}`;
  return `the OpenAPI document ${documentName(openapi.source)}: generated, stateful data (seed ${JSON.stringify(seed)}${kept})`;
}

/**
 * The start-up map's section for the OpenAPI backend: each collection it serves (a path without
 * parameters, `/v1/pets`) at its URL, with the items it holds now (with a state folder: as its
 * files hold them). None without a backend (`mock: false`).
 */
export async function documentResources(url: string, api: MockApi): Promise<string[]> {
  const openapi = api.options.openapi;
  if (!openapi) return [];
  const view = await openApiResourcesOf(api.app.store); // the engine's own pipeline's backend (a session has its own)
  const list = (await view?.list()) ?? [];
  if (list.length === 0) return [];
  const counts = await Promise.all(list.map((r) => r.count()));
  const prefix = api.prefixes[0] ?? '/';
  const at = (name: string) => `${url}${prefix === '/' ? '' : prefix}${name}`;
  const width = Math.min(60, Math.max(...list.map((r) => at(r.name).length)));
  return ['', `  Resources (the OpenAPI document ${documentName(openapi.source)})`, ...list.map((r, i) => `    ${at(r.name).padEnd(width)}  collection, ${plural(counts[i]!, 'item')}`)];
}

/** The positional argument as an OpenAPI document, or undefined (not one: a db, or no argument). */
export async function openApiPositional(positionals: string[], cwd: string): Promise<OpenApiArgument | undefined> {
  if (positionals.length !== 1 || !DOCUMENT_FILE.test(positionals[0]!)) return undefined;
  const file = resolve(cwd, positionals[0]!);
  const yaml = !/\.json$/i.test(file);
  if (!yaml) {
    // A .json file is a document only when its top level says so; read the start to tell cheaply.
    let head: string;
    try {
      const handle = await open(file, 'r');
      try {
        const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
        head = buffer.subarray(0, bytesRead).toString('utf8');
      } finally {
        await handle.close();
      }
    } catch {
      return undefined; // the db path reports a missing file
    }
    if (!/"(openapi|swagger)"\s*:/.test(head)) return undefined;
  }
  let document: Record<string, unknown>;
  try {
    document = await loadDocumentFile(file);
  } catch (err) {
    throw new Error(`mockyard: cannot read the OpenAPI document ${file}: ${(err as Error).message}`);
  }
  if (!isOpenApiDocument(document)) {
    if (!yaml) return undefined;
    throw new Error(`mockyard: ${file} is not an OpenAPI document (no top-level "openapi" or "swagger")`);
  }
  documentNames.set(document, positionals[0]!);
  positionals.length = 0;
  return { file, document, basePath: readDocument({ ...document, paths: {} }, createDeref(document)).basePath };
}

/** The flags that only mean something with a document, and what each does (for the usage error). */
const DOCUMENT_FLAGS = {
  seed: 'sets the generated data of an OpenAPI document (mockyard openapi.yaml --seed 7)',
  state: "keeps an OpenAPI document's generated collections in a folder (mockyard openapi.yaml --state state)",
  ids: "answers any id of an OpenAPI document's collections (mockyard openapi.yaml --ids any)",
  'strict-responses': 'answers 500 instead of an answer that breaks an OpenAPI document (mockyard openapi.yaml --strict-responses)',
} as const;

/** The usage error for a document flag given without a document, or undefined. */
export function documentFlagAlone(values: Partial<Record<keyof typeof DOCUMENT_FLAGS, unknown>>): string | undefined {
  const flag = (Object.keys(DOCUMENT_FLAGS) as (keyof typeof DOCUMENT_FLAGS)[]).find((f) => values[f] !== undefined);
  return flag === undefined ? undefined : `--${flag} ${DOCUMENT_FLAGS[flag].replace(' (', ': give the document (')}`;
}

/** The mock API options that serve the document (flags and config already applied to `mock`). */
export function serveOpenApi(mock: MockApiOptions, arg: OpenApiArgument, flags: { prefix?: string[]; fsDir?: string; seed?: string; state?: string; ids?: string; strictResponses?: boolean; configFile?: string }): void {
  const previous = mock.openapi && typeof mock.openapi === 'object' && 'document' in mock.openapi ? mock.openapi : {};
  const seed = flags.seed === undefined ? undefined : /^-?\d+$/.test(flags.seed) ? Number(flags.seed) : flags.seed;
  mock.openapi = {
    ...previous,
    document: arg.document,
    ...(seed !== undefined ? { seed } : {}),
    ...(flags.state !== undefined ? { state: flags.state } : {}),
    ...(flags.ids !== undefined ? { ids: flags.ids as 'population' | 'any' } : {}),
    ...(flags.strictResponses ? { strictResponses: true } : {}),
  };
  if (!flags.prefix?.length) mock.endpointPrefix = arg.basePath || '/';
  if (flags.fsDir === undefined && !flags.configFile) {
    mock.fsDir = null;
    delete mock.fs;
    // No folder: no collections for the preset's collections and GraphQL layers to serve (their
    // code, GraphQL's above all, is then not loaded at start-up).
    mock.collections ??= false;
    mock.graphql ??= false;
  }
}
