/**
 * `mockyard export [SOURCE | --fs-dir DIR] --types FILE | --openapi FILE [--prefix P] [--from-har FILE] [--from-journal URL] [--config FILE] [--watch]`
 * (docs/contract.md): the contract of a db.json (.json5, .js), a folder of mocks or an OpenAPI
 * document, as TypeScript types and/or an OpenAPI 3.1 document. The document's server path is
 * where `mockyard` serves the data named the same way (data-prefix.ts): SOURCE (json-server's
 * way) at `/`; `--fs-dir DIR`, the default ./mocks and a config file's data at `/api`. The data is read through the
 * mock API's own store (the same files, the same relation rule as serving them); documents
 * through the loader `mockyard openapi.yaml` uses. The inference and the emitters are
 * host-neutral (src/contract/); this module reads and writes files.
 */
import { existsSync, statSync, watch as watchFs, type FSWatcher } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { stringify as toYaml } from 'yaml';
import { dataModel, type DataModel } from '../contract/data-model.js';
import { dataTypes } from '../contract/data-types.js';
import { addObserved, harExchanges, journalAsHar, widenModel, type Exchange } from '../contract/learn-har.js';
import { ADMIN_BASE } from '../devtools/paths.js';
import { createNodeMockApi } from './engines.js';
import { findConfigFile, loadConfigFile } from './config.js';
import { checkDbFile } from './db-file.js';
import { DATA_FILE, jsonServerFlags } from './json-server-flags.js';
import { API_PREFIX, dataPrefix } from './data-prefix.js';
import { isOpenApiDocument, loadDocumentFile } from './openapi-document.js';
import type { MockApiOptions } from '../engine/mock-api-options.js';
import type { CollectionStore } from '../engine/store-contract/contract.js';

export interface ExportIo {
  cwd: string;
  out(line: string): void;
  err(line: string): void;
}

/** What a config gives the export besides the data: the store's naming, and the routes that are not REST. */
export type ExportMockOptions = Partial<Pick<MockApiOptions, 'store' | 'collections' | 'wsHandlers' | 'graphql' | 'endpointPrefix'>>;

export interface ExportFlags {
  types?: string;
  openapi?: string;
  prefix?: string;
  /** Whether the data was named as json-server names it (the positional SOURCE): served, so exported, at `/` (data-prefix.ts). */
  positional?: boolean;
  fromHar?: string;
  /** A running mockyard's URL: its devtools journal is learned from as a HAR log is. */
  fromJournal?: string;
  /** The mock API options of a config (`--config`, the Vite plugin's): relations, id field, WebSocket handlers, GraphQL. */
  mock?: ExportMockOptions;
}

type Source = { kind: 'data'; model: DataModel } | { kind: 'document'; document: Record<string, unknown> };

const DOCUMENT_FILE = /\.(ya?ml|json)$/i;

/** What SOURCE holds: an OpenAPI document, or data (a data file or a folder of mocks). */
export async function readSource(path: string, mock: ExportMockOptions = {}): Promise<Source> {
  if (!existsSync(path)) throw new Error(`${path}: no such file or folder`);
  const folder = statSync(path).isDirectory();
  if (!folder && DOCUMENT_FILE.test(path)) {
    const text = await readFile(path, 'utf8');
    if (/\.ya?ml$/i.test(path) || /"(openapi|swagger)"\s*:/.test(text.slice(0, 4096))) {
      const document = await loadDocumentFile(path);
      if (isOpenApiDocument(document)) return { kind: 'document', document };
      if (/\.ya?ml$/i.test(path)) throw new Error(`${path} is not an OpenAPI document (no top-level "openapi" or "swagger")`);
    }
  }
  if (!folder && !DATA_FILE.test(path)) throw new Error(`${path}: give a db.json (.json5, .js), a folder of mocks or an OpenAPI document`);
  const options: MockApiOptions = { endpointPrefix: '/', preset: 'json-server', logLevel: 'silent', journal: false, sessions: false, ...(mock.store ? { store: mock.store } : {}), ...(mock.collections !== undefined ? { collections: mock.collections } : {}) };
  if (folder) options.fsDir = path;
  else if (/\.json$/i.test(path)) {
    const problem = checkDbFile(path);
    if (problem) throw new Error(problem);
    options.db = path;
  } else Object.assign(options, (await jsonServerFlags([basename(path)], dirname(path), {})).mock);
  const api = createNodeMockApi(options);
  try {
    await api.ready();
    const store = api.app.store;
    const documents = await store.documents();
    if (folder) Object.assign(documents, await nestedCollections(path, store));
    return { kind: 'data', model: dataModel(documents, store.relations, store.idField) };
  } finally {
    await api.close();
  }
}

/** The collections in subfolders of a mocks folder (`v1/posts.json` → `v1/posts`), as the store opens them. */
async function nestedCollections(folder: string, store: CollectionStore): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const files = (await readdir(folder, { recursive: true })).map((f) => f.split(sep).join('/')).filter((f) => f.includes('/') && f.endsWith('.json') && !f.split('/').some((part) => part.startsWith('.')) && !f.includes('@'));
  for (const file of files.sort()) {
    const snapshot = await store.open(file.slice(0, -'.json'.length)).catch(() => null);
    if (snapshot && snapshot.items.length > 0) out[snapshot.name] = snapshot.items;
  }
  return out;
}

/** Writes what the flags ask for; returns the lines to print. */
export async function exportContract(sourcePath: string, flags: ExportFlags, cwd: string): Promise<string[]> {
  const source = await readSource(sourcePath, flags.mock);
  const name = relative(cwd, sourcePath) || basename(sourcePath);
  const lines: string[] = [];
  if (flags.types !== undefined) {
    const text = source.kind === 'data' ? dataTypes(source.model, name) : (await import('../contract/document-types.js')).documentTypes(source.document, name);
    await writeText(flags.types, text);
    lines.push(`types of ${name} → ${relative(cwd, flags.types) || flags.types}`);
  }
  if (flags.openapi !== undefined) {
    if (source.kind !== 'data') throw new Error('--openapi exports the contract of data (a db.json or a folder); the source is already an OpenAPI document');
    const { dataOpenApi } = await import('../contract/data-openapi.js');
    // Where `mockyard` serves the data named this way: THE prefix rule of the command (data-prefix.ts).
    const chosen = dataPrefix({ flag: flags.prefix === undefined ? undefined : [flags.prefix], config: flags.mock?.endpointPrefix, positional: flags.positional ?? false });
    const prefix = (typeof chosen === 'string' ? chosen : chosen[0]) ?? API_PREFIX;
    let model = source.model;
    const exchanges: Exchange[] = [];
    if (flags.fromHar !== undefined) exchanges.push(...harExchanges(await readJson(flags.fromHar), prefix));
    if (flags.fromJournal !== undefined) exchanges.push(...harExchanges(journalAsHar(await readJournal(flags.fromJournal), flags.fromJournal), prefix));
    if (exchanges.length) model = widenModel(model, exchanges);
    // The json-server preset serves GraphQL over the same collections (docs/graphql.md).
    const base = prefix.replace(/\/+$/, '');
    const document = dataOpenApi(model, {
      title: basename(sourcePath),
      prefix,
      ...(flags.mock?.graphql === false ? {} : { graphql: `${base}/graphql` }),
      websockets: (flags.mock?.wsHandlers ?? []).filter((h) => !h.disabled).map((h) => `${base}${h.pattern}`),
    });
    if (exchanges.length) addObserved(document, exchanges);
    await writeText(flags.openapi, /\.ya?ml$/i.test(flags.openapi) ? toYaml(document, { aliasDuplicateObjects: false }) : `${JSON.stringify(document, null, 2)}\n`);
    lines.push(`OpenAPI 3.1 document of ${name} → ${relative(cwd, flags.openapi) || flags.openapi}`);
  }
  return lines;
}

async function readJson(file: string): Promise<unknown> {
  const text = await readFile(file, 'utf8');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is not JSON (a HAR log): ${(err as Error).message}`);
  }
}

/** The journal of the mockyard running at `url` (its admin API). */
async function readJournal(url: string): Promise<unknown> {
  const at = `${url.replace(/\/+$/, '')}${ADMIN_BASE}/requests?outgoing=false`;
  let res: Response;
  try {
    res = await fetch(at);
  } catch (err) {
    throw new Error(`--from-journal: cannot reach ${at} (${(err as Error).message})`);
  }
  if (!res.ok) throw new Error(`--from-journal: ${at} answered ${res.status}`);
  return res.json();
}

async function writeText(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const before = await readFile(file, 'utf8').catch(() => undefined);
  if (before !== text) await writeFile(file, text);
}

/** Regenerates on every change of the source (a file, or anything in a folder) until `signal` aborts. */
export function watchContract(sourcePath: string, run: () => Promise<void>, signal: AbortSignal): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let watcher: FSWatcher;
  const folder = statSync(sourcePath).isDirectory();
  const target = folder ? sourcePath : dirname(sourcePath);
  watcher = watchFs(target, { recursive: folder }, (_event, file) => {
    if (!folder && file !== null && file !== basename(sourcePath)) return;
    clearTimeout(timer);
    timer = setTimeout(() => void run(), 50);
  });
  signal.addEventListener('abort', () => {
    clearTimeout(timer);
    watcher.close();
  }, { once: true });
}

/** The `export` command's argument handling (exit 2 on bad arguments, 1 on a failed export). */
export async function runExportCommand(argv: string[], io: ExportIo): Promise<{ code?: number; stop?: () => Promise<void> }> {
  let parsed: { values: { types?: string; openapi?: string; prefix?: string; 'fs-dir'?: string; 'from-har'?: string; 'from-journal'?: string; watch?: boolean; config?: string }; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: { types: { type: 'string' }, openapi: { type: 'string' }, prefix: { type: 'string' }, 'fs-dir': { type: 'string' }, 'from-har': { type: 'string' }, 'from-journal': { type: 'string' }, watch: { type: 'boolean' }, config: { type: 'string', short: 'c' } } });
  } catch (err) {
    io.err(`mockyard: ${(err as Error).message}\nRun "mockyard --help" for usage.`);
    return { code: 2 };
  }
  const { values, positionals } = parsed;
  const usage = (message: string) => {
    io.err(`mockyard: export: ${message}\nRun "mockyard --help" for usage.`);
    return { code: 2 };
  };
  if (positionals.length > 1 || (positionals.length === 1 && values['fs-dir'] !== undefined)) return usage('give one source: a db.json, a folder of mocks or an OpenAPI document (mockyard export db.json --types api.d.ts), or --fs-dir DIR');
  if (values.types === undefined && values.openapi === undefined) return usage('give --types FILE (TypeScript) and/or --openapi FILE (.json, .yaml)');
  if (values.openapi !== undefined && !/\.(json|ya?ml)$/i.test(values.openapi)) return usage(`--openapi writes .json or .yaml (got "${values.openapi}")`);
  if (values.prefix !== undefined && !values.prefix.startsWith('/')) return usage(`--prefix must start with "/" (got "${values.prefix}")`);
  for (const flag of ['from-har', 'from-journal'] as const) if (values[flag] !== undefined && values.openapi === undefined) return usage(`--${flag} adds observed traffic to the --openapi document: give --openapi FILE`);
  if (values['from-journal'] !== undefined && !/^https?:\/\/[^/]+/i.test(values['from-journal'])) return usage(`--from-journal takes the URL of a running mockyard (got "${values['from-journal']}")`);
  let mock: (ExportMockOptions & Pick<MockApiOptions, 'db' | 'fsDir'>) | undefined;
  try {
    // No data named at all: the config file `mockyard` finds in the folder (mockyard.config.*) names it, as it does for `mockyard`.
    const named = positionals.length > 0 || values['fs-dir'] !== undefined;
    const configFile = values.config !== undefined ? resolve(io.cwd, values.config) : named ? undefined : findConfigFile(io.cwd);
    mock = configFile === undefined ? undefined : (await loadConfigFile(configFile)).mock;
  } catch (err) {
    io.err(`mockyard: export: ${(err as Error).message}`);
    return { code: 1 };
  }
  // The data as `mockyard` is given it: the positional SOURCE, else --fs-dir, the config's db or fsDir, the default ./mocks.
  const configData = (typeof mock?.db === 'string' ? mock.db : undefined) ?? (typeof mock?.fsDir === 'string' ? mock.fsDir : undefined);
  const source = resolve(io.cwd, positionals[0] ?? values['fs-dir'] ?? configData ?? 'mocks');
  const flags: ExportFlags = {
    types: values.types === undefined ? undefined : resolve(io.cwd, values.types),
    openapi: values.openapi === undefined ? undefined : resolve(io.cwd, values.openapi),
    prefix: values.prefix,
    positional: positionals.length === 1,
    mock,
    fromHar: values['from-har'] === undefined ? undefined : resolve(io.cwd, values['from-har']),
    fromJournal: values['from-journal'],
  };
  const once = async (): Promise<boolean> => {
    try {
      for (const line of await exportContract(source, flags, io.cwd)) io.out(line);
      return true;
    } catch (err) {
      io.err(`mockyard: export: ${(err as Error).message}`);
      return false;
    }
  };
  const ok = await once();
  if (!values.watch) return { code: ok ? 0 : 1 };
  if (!existsSync(source)) return { code: 1 };
  const stop = new AbortController();
  watchContract(source, async () => {
    await once();
  }, stop.signal);
  io.out(`watching ${relative(io.cwd, source) || source} (Ctrl+C to stop)`);
  return { stop: async () => stop.abort() };
}
