#!/usr/bin/env node
/**
 * The `mockyard` command.
 *
 *   mockyard [--config FILE] [--fs-dir DIR] [--prefix P]… [--port N] [--host H] [--delay MS]
 *   mockyard init-worker [PUBLIC_DIR]
 *
 * Flags win over the config file; a relative `--fs-dir` resolves against the working directory,
 * a relative `fsDir` in the config against the config file's folder; a missing folder is created
 * at start-up (and the command says so). Bad flags exit with 2,
 * start-up failures (config errors, port in use) with 1; SIGINT/SIGTERM close cleanly (exit 0).
 */
import { existsSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Engine } from '../core/engine.js';
import type { MockApi } from '../engine/create-mock-api.js';
import type { MockApiOptions } from '../engine/mock-api-options.js';
import type { Collector } from '../tracker/types.js';
import { isCollector } from '../tracker/is-collector.js';
import { isMockApi } from '../engine/is-mock-api.js';
import type { MockyardConfig } from '../define-config.js';
import { errorResponse } from '../core/errors.js';
import { fastState } from '../core/fast-response.js';
import { splitUrl } from '../core/exchange.js';
import { VERSION } from '../core/version.js';
import { createResourceMap, type ResourceMapSource } from '../engine/resource-map.js';
import { findConfigFile, loadConfigFile } from './config.js';
import { createHomePage } from './home-page.js';
import { exchangeLine, formatLogLine, logEngine, type LogLine } from './request-log.js';
import { startupMap } from './startup-map.js';
import { ADMIN_BASE, DEVTOOLS_BASE, isDevtoolsEngine } from '../devtools/paths.js';
import { isLoopbackHost } from '../devtools/guard.js';
import type { Host } from '../host/create-host.js';
import { nodeHost } from './engines.js';
import { keepHarFile } from './har-file.js';
import { initWorker } from './init-worker.js';
import { storageLine, storageName, waitForStorage, withSpoolDefault } from './cli-tracker-storage.js';
import { documentFlagAlone, documentName, documentResources, documentServing, openApiPositional, serveOpenApi } from './openapi-cli.js';
import { listenOptions, serveHost, type RunningServer } from './serve.js';
import { DATA_FILE, JsonServerFlagError, jsonServerFlags, type FlagSpecs, type JsonServerArgs } from './json-server-flags.js';
import { watchJsonServerFiles } from './json-server-watch.js';
import { modeLine } from './mode-line.js';
import { dataPrefix, wrongPrefixMessage } from './data-prefix.js';
import { sayWhenNotFound } from '../engine/pipeline/not-found.js';
import { checkDbFile } from './db-file.js';
import { lineBatch } from './line-batch.js';

export const HELP = `Usage: mockyard [options]
       mockyard db.json [options]
       mockyard FOLDER [options]   (a folder, served as db.json is: at /)
       mockyard openapi.yaml [--seed N] [--state DIR] [--ids any] [--strict-responses] [options]   (an OpenAPI document: a whole backend, docs/openapi.md)
       mockyard --har traffic.har [options]   (serve a HAR log as recorded traffic, docs/proxy.md)
       mockyard record --target URL [--fs-dir DIR] [--overwrite] [--har FILE] [options]
       mockyard import OPENAPI_FILE [--fs-dir DIR] [--overwrite]
       mockyard check OPENAPI_FILE TRAFFIC.har [--prefix P]   (exit 1 when the traffic drifts from the document, or nothing in it was checked)
       mockyard export [SOURCE | --fs-dir DIR] [--types FILE.d.ts] [--openapi FILE.yaml] [--from-har FILE] [--from-journal URL] [--prefix P] [--config FILE] [--watch]
                (TypeScript types / an OpenAPI 3.1 document of a db.json, a folder or a document, docs/contract.md)
                (its server path is where mockyard serves the data named the same way: SOURCE at /, --fs-dir DIR, ./mocks or --config at /api; --prefix P wins)
       mockyard init-worker [PUBLIC_DIR]

Serves a fake backend: JSON (and any other) files under a folder as a REST API,
plus the event collector when the config enables it. Given a .json file, serves its
top-level keys as json-server does (collections, json-server query syntax).

Options:
  -c, --config FILE    config file (default: mockyard.config.{js,mjs,ts} in the current folder)
      --fs-dir DIR     folder of mock files (relative to the current folder; default from config, else ./mocks)
      --prefix P       URL prefix of the mock API, repeatable (default from config, else /
                       for a data file or folder given as the argument, as json-server; else /api)
  -p, --port N         port, 0 for a free one (default from config, else 3000)
      --host H         interface to listen on (default from config, else 127.0.0.1)
      --delay MS       delay every mock API response by MS milliseconds
      --proxy URL      forward what no handler or file answers to the real API at URL
      --har FILE       serve a HAR log (a browser's, Playwright's recordHar, mockyard record's):
                       method + path + query (+ body for writes) as recorded; another query or
                       body of a recorded path goes to --proxy, else a 404 naming what is recorded
      --tracker        also run the event collector (default options) when the config has none
      --tracker-db URL keep the collector's events in PostgreSQL (postgres://…; implies --tracker;
                       default: $MOCKYARD_TRACKER_DB); starts without the database and
                       connects in the background, spooling ingest on disk meanwhile
      --tracker-db-wait S  exit with an error unless the database is connected within S seconds
      --preset P       json-server | none (default: json-server without a config file,
                       else the config's preset; none = the spec's file mode)
      --cors ORIGINS   CORS for the mock API: '*' or a comma list of origins, reflected
                       with credentials (default: http://localhost:* and http://127.0.0.1:*)
      --no-cors        no CORS headers on the mock API
      --quiet          no request log and no start-up map (warnings and errors still print)
      --log-level L    debug | info | warn | error | silent (default info)
  -h, --help           show this help
  -v, --version        show the version

Commands:
  record               forward every request under the prefix to --target URL and record every
                       answer in --fs-dir (default ./mocks): a 2xx GET body as a mock file, and
                       each status, meaningful headers and request body in <name>@recorded.json,
                       replayed exactly by plain serving; existing files and answers are kept
                       unless --overwrite; the session's HAR log (request bodies included) goes
                       to --har FILE (default: <fs-dir>.har next to the folder). Secrets are redacted.
  import FILE          write a mock file per GET operation of an OpenAPI 3.0/3.1 or Swagger 2
                       document (YAML or JSON) into --fs-dir (default ./mocks): its example,
                       else a sample generated from its schema; existing files kept unless
                       --overwrite; prints a summary
  init-worker [DIR]    write msw's mockServiceWorker.js into DIR (default: public) for browser mode

Examples:
  mockyard db.json
  mockyard --fs-dir ./mocks --prefix /api --port 3000
  mockyard --config playground/mockyard.config.mjs --port 0
  mockyard --fs-dir ./mocks --proxy https://staging.example.com
  mockyard record --target https://staging.example.com --fs-dir ./mocks
  mockyard --har traffic.har --proxy https://staging.example.com
`;

export interface CliIo {
  cwd: string;
  /** Colours in the request log (a TTY). */
  color?: boolean;
  out(line: string): void;
  err(line: string): void;
}

export interface CliResult {
  /** Exit code when the command is finished; `undefined` while the server runs. */
  code?: number;
  server?: RunningServer;
  /** Stops the server and closes the engines the CLI created (server mode). */
  stop?: () => Promise<void>;
}

function prefixed(err: unknown): string {
  const message = (err as Error)?.message ?? String(err);
  return message.startsWith('mockyard') ? message : `mockyard: ${message}`;
}

/** A usage error: message printed with a hint, exit code 2. */
class UsageError extends Error {}


function parseNumber(flag: string, raw: string | undefined, opts: { integer?: boolean; min?: number; max?: number }): number | undefined {
  if (raw === undefined) return undefined;
  const n = raw.trim() === '' ? NaN : Number(raw);
  const { integer = false, min = -Infinity, max = Infinity } = opts;
  if (!Number.isFinite(n) || (integer && !Number.isInteger(n)) || n < min || n > max) {
    const range = max < Infinity ? ` between ${min} and ${max}` : min > -Infinity ? ` >= ${min}` : '';
    throw new UsageError(`--${flag} must be ${integer ? 'an integer' : 'a number'}${range} (got "${raw}")`);
  }
  return n;
}

/** mockyard's own flags (json-server's are read first, by json-server-flags.ts). */
const FLAGS = {
  config: { type: 'string', short: 'c' },
  'fs-dir': { type: 'string' },
  prefix: { type: 'string', multiple: true },
  port: { type: 'string', short: 'p' },
  host: { type: 'string' },
  delay: { type: 'string' },
  seed: { type: 'string' },
  state: { type: 'string' },
  'strict-responses': { type: 'boolean' },
  ids: { type: 'string' },
  proxy: { type: 'string' },
  target: { type: 'string' },
  overwrite: { type: 'boolean' },
  har: { type: 'string' },
  tracker: { type: 'boolean' },
  'tracker-db': { type: 'string' },
  'tracker-db-wait': { type: 'string' },
  'log-level': { type: 'string' },
  preset: { type: 'string' },
  cors: { type: 'string' },
  'no-cors': { type: 'boolean' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const satisfies FlagSpecs;

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: FLAGS,
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** The CLI's default CORS: pages served from this machine by a dev server (any port). */
const LOCAL_ORIGINS = [/^http:\/\/localhost(:\d+)?$/, /^http:\/\/127\.0\.0\.1(:\d+)?$/, /^http:\/\/\[::1\](:\d+)?$/];
/** `--cors '*'`: every origin, reflected (credentials forbid `*`). */
const ANY_ORIGIN = [/^/];

const LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
type Level = (typeof LEVELS)[number];

const HTTP_URL = /^https?:\/\/[^/?#]+/i;

/**
 * The effective config: file, then flags on top. Exported for tests. `record` (the `record`
 * command): `--target` is required, and the mock API forwards every request to it (no file
 * served) and records into the fsDir; `har` is where the session's HAR log goes.
 */
export async function buildConfig(
  argv: string[],
  cwd: string,
  env: Record<string, string | undefined> = process.env,
  mode: 'serve' | 'record' = 'serve',
  jsonServer?: JsonServerArgs,
): Promise<{ config: MockyardConfig; configFile?: string; tracker: boolean; quiet: boolean; db?: string; har?: string; overwrite?: boolean; dbWait?: number; notes: string[]; implicitFsDir?: boolean; jsonServerFiles?: JsonServerArgs['files'] }> {
  const js = jsonServer ?? (mode === 'serve' ? await jsonServerFlags(argv, cwd, FLAGS) : undefined); // json-server's flags (json-server-flags.ts)
  const { values, positionals } = parse(js?.argv ?? argv);
  const openapi = mode === 'serve' ? await openApiPositional(positionals, cwd) : undefined; // `mockyard openapi.yaml` (openapi-cli.ts)
  if (mode === 'serve') {
    for (const flag of ['target', 'overwrite'] as const) if (values[flag] !== undefined) throw new UsageError(`--${flag} belongs to "mockyard record"`);
    if (positionals.length > 1 || (positionals.length === 1 && !DATA_FILE.test(positionals[0]!) && !isFolder(resolve(cwd, positionals[0]!)))) {
      throw new UsageError(`unexpected argument "${positionals[positionals.length > 1 ? 1 : 0]}" (give at most one data file or folder, e.g. mockyard db.json or mockyard mocks; also .json5, .js, .cjs, .mjs)`);
    }
  } else {
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    if (values.target === undefined) throw new UsageError('record needs --target URL (the real API to record)');
    if (!HTTP_URL.test(values.target)) throw new UsageError(`--target must be an absolute http(s) URL (got "${values.target}")`);
    if (values.proxy !== undefined) throw new UsageError('record takes --target, not --proxy');
  }
  // `mockyard mocks` names a folder as `mockyard db.json` names a file (a folder named like a data file is a folder).
  const dataFolder = mode === 'serve' && positionals[0] !== undefined && isFolder(resolve(cwd, positionals[0])) ? positionals[0] : undefined;
  const dbFile = dataFolder === undefined ? positionals[0] : undefined;
  if (positionals[0] !== undefined && values['fs-dir'] !== undefined) throw new UsageError(`give either ${dataFolder === undefined ? 'a data file' : 'a folder'} or --fs-dir, not both`);
  if (values.preset !== undefined && values.preset !== 'json-server' && values.preset !== 'none') throw new UsageError(`--preset must be json-server or none (got "${values.preset}")`);
  if (values.cors !== undefined && values['no-cors']) throw new UsageError('give either --cors or --no-cors, not both');
  const documentFlag = openapi ? undefined : documentFlagAlone(values); // openapi-cli.ts
  if (documentFlag) throw new UsageError(documentFlag);
  if (values.cors !== undefined && values.cors.trim() === '') throw new UsageError('--cors must be \'*\' or a comma list of origins');
  const port = parseNumber('port', values.port, { integer: true, min: 0, max: 65535 });
  const delay = parseNumber('delay', values.delay, { min: 0 });
  const level = values['log-level'];
  if (level !== undefined && !(LEVELS as readonly string[]).includes(level)) throw new UsageError(`--log-level must be one of ${LEVELS.join(', ')} (got "${level}")`);
  if (values.host !== undefined && values.host.trim() === '') throw new UsageError('--host must not be empty');
  if (values.proxy !== undefined && !HTTP_URL.test(values.proxy)) throw new UsageError(`--proxy must be an absolute http(s) URL (got "${values.proxy}")`);
  for (const p of values.prefix ?? []) if (!p.startsWith('/')) throw new UsageError(`--prefix must start with "/" (got "${p}")`);
  const trackerDb = values['tracker-db'] ?? (env.MOCKYARD_TRACKER_DB || undefined);
  if (trackerDb !== undefined && !/^postgres(ql)?:\/\//.test(trackerDb)) {
    throw new UsageError(`${values['tracker-db'] !== undefined ? '--tracker-db' : 'MOCKYARD_TRACKER_DB'} must be a postgres:// URL (got "${trackerDb.replace(/\/\/[^@/]*@/, '//…@')}")`);
  }

  const dbWait = parseNumber('tracker-db-wait', values['tracker-db-wait'], { min: 0 });
  const configFile = values.config !== undefined ? resolve(cwd, values.config) : findConfigFile(cwd);
  const fromFile: MockyardConfig = configFile ? await loadConfigFile(configFile) : {};
  const mock: MockApiOptions = { ...(fromFile.mock ?? {}) } as MockApiOptions;
  if (!configFile && values['fs-dir'] === undefined) mock.fsDir = resolve(cwd, 'mocks');
  const folderFlag = values['fs-dir'] ?? dataFolder;
  if (folderFlag !== undefined) {
    mock.fsDir = resolve(cwd, folderFlag);
    delete mock.fs;
    delete mock.db;
  }
  if (dbFile !== undefined) {
    mock.db = resolve(cwd, dbFile);
    delete mock.fsDir;
    delete mock.fs;
  }
  // THE prefix rule (data-prefix.ts): a file and a folder alike.
  const harAlone = mode === 'serve' && values.har !== undefined && !configFile && folderFlag === undefined && dbFile === undefined && openapi === undefined;
  mock.endpointPrefix = dataPrefix({ flag: values.prefix, config: fromFile.mock?.endpointPrefix as string | string[] | undefined, positional: dataFolder !== undefined || dbFile !== undefined, harAlone }) as string | string[];
  if (js) Object.assign(mock, js.mock);
  // Without a config file a folder (or a db.json) is a REST API as json-server serves it; a
  // config file means what it says (no `preset`: the spec's file mode).
  const preset = values.preset ?? (dbFile !== undefined || !configFile ? 'json-server' : undefined);
  if (preset !== undefined) mock.preset = preset === 'none' ? null : 'json-server';
  if (values['no-cors']) mock.cors = false;
  else if (values.cors !== undefined) {
    // As json-server 0.17 (`cors({ origin: true, credentials: true })`): the allowed origin is
    // reflected with credentials, so `fetch(…, { credentials: 'include' })` works; `'*'` reflects any origin.
    const list = values.cors.split(',').map((o) => o.trim()).filter(Boolean);
    mock.cors = { origins: list.includes('*') ? ANY_ORIGIN : list, credentials: true };
  } else if (mock.cors === undefined) mock.cors = { origins: LOCAL_ORIGINS, credentials: true };
  if (delay !== undefined) mock.delay = delay;
  if (values.proxy !== undefined) mock.proxy = { ...(mock.proxy ?? {}), target: values.proxy };
  if (mode === 'serve' && values.har !== undefined) {
    mock.har = resolve(cwd, values.har); // served as recorded traffic (engine/replay/layer.ts)
    if (!configFile && folderFlag === undefined && dbFile === undefined) mock.fsDir = null; // the HAR alone (its prefix: data-prefix.ts)
  }
  let har: string | undefined;
  if (mode === 'record') {
    const previous = mock.proxy?.record;
    mock.proxy = {
      ...(mock.proxy ?? {}),
      target: values.target!,
      record: { ...(typeof previous === 'object' ? previous : {}), overwrite: values.overwrite === true, serveFiles: false },
    };
    const folder = typeof mock.fsDir === 'string' ? resolve(cwd, mock.fsDir) : resolve(cwd, 'mocks');
    if (typeof mock.fsDir !== 'string') mock.fsDir = folder;
    har = values.har !== undefined ? resolve(cwd, values.har) : `${folder.replace(/[\\/]+$/, '')}.har`;
  }
  if (openapi) serveOpenApi(mock, openapi, { prefix: values.prefix, fsDir: values['fs-dir'], seed: values.seed, state: values.state === undefined ? undefined : resolve(cwd, values.state), ids: values.ids, strictResponses: values['strict-responses'], configFile });
  const logLevel = (level as Level | undefined) ?? fromFile.logLevel ?? 'info';
  if (mock.logLevel === undefined) mock.logLevel = logLevel;
  const config: MockyardConfig = {
    ...fromFile,
    mock,
    port: port ?? fromFile.port ?? 3000,
    host: values.host ?? fromFile.host ?? '127.0.0.1',
    logLevel,
  };
  if (trackerDb !== undefined) {
    // The flag (or the environment) wins over the config file's storage.
    const base = fromFile.tracker && typeof fromFile.tracker === 'object' ? fromFile.tracker : { appId: 'mockyard' };
    const { storageDir: _dir, storage, ...rest } = base;
    config.tracker = { ...rest, storage: { postgres: trackerDb, ...(storage?.spool !== undefined ? { spool: storage.spool } : {}) } };
  }
  if (config.tracker) config.tracker = withSpoolDefault(config.tracker, cwd);
  if (dbWait !== undefined && !(config.tracker && (config.tracker.storage?.postgres !== undefined || config.tracker.storage?.store !== undefined))) throw new UsageError('--tracker-db-wait needs --tracker-db (or a collector with a database store)');
  return { implicitFsDir: !configFile && folderFlag === undefined && dbFile === undefined && mode === 'serve' && values.har === undefined, config, configFile, tracker: values.tracker === true || trackerDb !== undefined, quiet: values.quiet === true, db: dbFile === undefined ? undefined : resolve(cwd, dbFile), har, overwrite: values.overwrite === true, dbWait, notes: js?.notes ?? [], jsonServerFiles: js?.files };
}

async function runImport(argv: string[], io: CliIo): Promise<CliResult> {
  let values: { 'fs-dir'?: string; overwrite?: boolean; seed?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true, options: { 'fs-dir': { type: 'string' }, overwrite: { type: 'boolean' }, seed: { type: 'string' } } }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (positionals.length !== 1) throw new UsageError('import takes one OpenAPI document (mockyard import openapi.yaml --fs-dir mocks)');
  const { importOpenApi } = await import('./openapi-import.js');
  const result = await importOpenApi(resolve(io.cwd, positionals[0]!), resolve(io.cwd, values['fs-dir'] ?? 'mocks'), { overwrite: values.overwrite === true, seed: values.seed });
  for (const line of result.lines) io.out(line);
  return { code: 0 };
}

/** Lines describing what a running server serves. */
export function describeServing(url: string, engines: readonly Engine[], source: string | null | undefined, fileRouting: boolean): string[] {
  const lines: string[] = [];
  for (const engine of engines) {
    if (isDevtoolsEngine(engine)) {
      lines.push(`  ${url}${DEVTOOLS_BASE}/  →  devtools page (admin API at ${ADMIN_BASE}/)`);
      continue;
    }
    if (isDevtoolsEngine(engine, true)) continue;
    if (isCollector(engine)) {
      lines.push(`  ${url}${engine.basePath}  →  event collector`);
      continue;
    }
    const api: Partial<MockApi> = isMockApi(engine) ? engine : {};
    for (const prefix of engine.prefixes) {
      const files = api.options && fileRouting && source ? (api.options.db !== null ? source : `files in ${source}`) : undefined;
      const document = api.options ? documentServing(api.options) : undefined; // openapi-cli.ts
      const har = api.options?.har ? (typeof api.options.har === 'string' ? `the HAR log ${basename(api.options.har)}` : 'a HAR log') : undefined;
      const what = !api.options ? 'engine' : [har, files, document].filter(Boolean).join(', then ') || 'handlers only (no file folder)';
      const proxy = api.options?.proxy;
      if (proxy?.record?.serveFiles === false) {
        lines.push(`  ${url}${prefix === '/' ? '' : prefix}  →  ${proxy.origin}${proxy.basePath}, recording every answer into ${source}${proxy.record.overwrite ? ' (overwriting)' : ''}`);
        continue;
      }
      lines.push(`  ${url}${prefix === '/' ? '' : prefix}  →  ${what}${proxy ? `, else proxied to ${proxy.origin}${proxy.basePath}` : ''}`);
    }
  }
  return lines;
}

/**
 * The CLI serves files from a folder the user named (`--fs-dir`, the config's `fsDir`, or the
 * documented `./mocks`): when it is missing, it is created at start-up (and the caller says so),
 * so PUT and POST work at once. The library instead keeps the spec's rule (file routing off until
 * the folder appears). Returns the folder created, if any.
 */
async function ensureFsDir(mock: MockApiOptions | undefined, cwd: string): Promise<string | undefined> {
  if (!mock || mock.fs || typeof mock.fsDir !== 'string') return undefined;
  const dir = resolve(mock.root ?? cwd, mock.fsDir);
  try {
    await stat(dir);
    return undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return undefined; // the engine reports it
  }
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    throw new Error(`mockyard: cannot create the mock folder ${dir}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return dir;
}

/**
 * Runs the command. Server mode resolves once listening (`server`, `stop`); other modes resolve
 * with an exit code. Never calls process.exit (the bin entry below does).
 */
export async function main(argv: string[], io: CliIo): Promise<CliResult> {
  let parsed: Awaited<ReturnType<typeof buildConfig>>;
  try {
    if (argv[0] === 'init-worker') {
      if (argv.length > 2) throw new UsageError('init-worker takes one folder');
      const { path, changed, version } = await initWorker(resolve(io.cwd, argv[1] ?? 'public'), io.cwd);
      io.out(changed ? `wrote ${path} (msw ${version})` : `${path} is up to date (msw ${version})`);
      return { code: 0 };
    }
    if (argv[0] === 'import') return await runImport(argv.slice(1), io);
    if (argv[0] === 'check') return await (await import('./openapi-check.js')).runCheckCommand(argv.slice(1), io);
    if (argv[0] === 'export') return await (await import('./contract-cli.js')).runExportCommand(argv.slice(1), io);
    const record = argv[0] === 'record';
    if (record) argv = argv.slice(1);
    const js = record ? undefined : await jsonServerFlags(argv, io.cwd, FLAGS);
    const { values } = parse(js?.argv ?? argv);
    if (values.help) {
      io.out(HELP);
      return { code: 0 };
    }
    if (values.version) {
      io.out(VERSION);
      return { code: 0 };
    }
    parsed = await buildConfig(argv, io.cwd, process.env, record ? 'record' : 'serve', js);
  } catch (err) {
    if (err instanceof UsageError || err instanceof JsonServerFlagError) {
      io.err(`mockyard: ${err.message}\nRun "mockyard --help" for usage.`);
      return { code: 2 };
    }
    io.err(prefixed(err));
    return { code: 1 };
  }

  const { config, configFile } = parsed;
  const tracker = config.tracker
    ? { logLevel: config.logLevel, ...config.tracker }
    : parsed.tracker ? { appId: 'mockyard', logLevel: config.logLevel } : undefined;
  const db = typeof config.mock?.db === 'string' && !config.mock.fs ? config.mock.db : undefined;
  if (db !== undefined && !existsSync(db) && /\.json$/i.test(db)) {
    // As json-server 0.17: a missing db.json is created with its sample data, then served.
    try {
      await mkdir(dirname(db), { recursive: true });
      writeFileSync(db, `${JSON.stringify(SAMPLE_DB, null, 2)}\n`, { flag: 'wx' });
      if (config.logLevel !== 'silent') io.out(`mockyard: created ${db} with json-server's sample data (it did not exist)`);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        io.err(`mockyard: cannot create ${db}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
        return { code: 1 };
      }
    }
  }
  if (db !== undefined) {
    const problem = checkDbFile(db);
    if (problem) {
      io.err(`mockyard: ${problem}`);
      return { code: 1 };
    }
  }
  let hostApp: Host | undefined;
  let map: ResourceMapSource | undefined;
  try {
    // The implicit ./mocks is created for a mock API run, not when only the collector was asked for.
    const created = parsed.implicitFsDir && parsed.tracker ? undefined : await ensureFsDir(config.mock, io.cwd);
    if (created && config.logLevel !== 'silent') io.out(`mockyard: created ${created} (the mock folder did not exist)`);
    const talk = config.logLevel !== 'silent' && !parsed.quiet;
    const logRequests = talk && (config.logLevel === 'info' || config.logLevel === 'debug');
    const color = io.color === true;
    const report = (line: LogLine) => io.out(formatLogLine(line, color));
    const listen = listenOptions({ port: config.port, host: config.host, logLevel: config.logLevel });
    // The CLI host, assembled once: the engines (the collector logged through a wrapper; the mock
    // API through its observer hook), then, for what no engine answers, the home page at `/` and
    // the JSON 404 (`serve`'s fallback: it costs the engines' fast path nothing).
    let api: MockApi | undefined;
    let homePage: Engine | undefined;
    let devtoolsServed = false;
    const home: Engine = { prefixes: ['/'], handle: (request) => homePage!.handle(request) };
    hostApp = await nodeHost({
      mock: config.mock,
      tracker,
      devtools: config.devtools,
      local: isLoopbackHost(listen.host),
      server: { listen: listen.host },
      decorate(engine, role) {
        if (role === 'tracker') return logRequests ? logEngine(engine, 'collector', report) : engine;
        if (role !== 'mock') return engine;
        api = engine as MockApi;
        if (logRequests) api.observe((x) => report(exchangeLine(x)));
        // A mock API at `/` itself answers `/` (404): browsers asking for HTML get the home page.
        // CORS preflights are answered before the engine's pipeline (and its observers): logged here.
        const rootPrefix = api.prefixes.includes('/');
        const ownIndex = api.options.static.some((d) => typeof d === 'string' && existsSync(resolve(d, 'index.html'))); // a static index.html wins over the home page
        return rootPrefix || (logRequests && api.options.cors) ? cliMockApi(api, rootPrefix && !ownIndex ? home : undefined, logRequests ? report : undefined) : engine;
      },
    });
    const collector = hostApp.tracker as Collector | undefined;
    if (collector && typeof collector.status === 'function' && tracker && parsed.dbWait !== undefined) await waitForStorage(collector, parsed.dbWait, storageName(tracker));
    const served = hostApp.engines.filter((e) => !isDevtoolsEngine(e) && !isDevtoolsEngine(e, true));
    map = api ? createResourceMap(api) : undefined;
    homePage = createHomePage({ map, engines: served, version: VERSION, devtools: () => (devtoolsServed ? `${DEVTOOLS_BASE}/` : undefined) });
    // What no engine answered: the home page, else the JSON 404 (naming the prefix when the request
    // used the other one), adopted by the mock API: its CORS and the preset's no-cache headers, as
    // on its own answers (a browser app on another origin reads the 404, not a CORS error).
    const fallback = async (request: Request): Promise<Response> => {
      const start = performance.now();
      const [pathname, search] = splitUrl(request.url);
      let what = 'CORS preflight';
      const own = async (): Promise<Response> => {
        const answer = await homePage!.handle(request);
        what = answer ? 'home page' : 'nothing matched';
        const message = api && wrongPrefixMessage(pathname, api.prefixes);
        return answer ?? errorResponse(404, message || 'Not Found', pathname, { head: request.method.toUpperCase() === 'HEAD' });
      };
      const res = api ? await api.adopt(request, own) : await own();
      if (logRequests) report({ method: request.method.toUpperCase(), pathname, search, status: res.status, ms: performance.now() - start, what });
      return res;
    };
    const server = await serveHost(hostApp, { ...listen, fallback });
    devtoolsServed = server.engines.some((e) => isDevtoolsEngine(e));
    const fileRouting = api ? await api.ready() : false;
    // routes.json and the -m files: an edit swapped into the running engine (json-server-watch.ts).
    const jsFiles = parsed.jsonServerFiles;
    const jsWatch = api && jsFiles && (jsFiles.routes !== undefined || jsFiles.middlewares.length > 0)
      ? watchJsonServerFiles(api, jsFiles, { info: (line) => { if (config.logLevel !== 'silent') io.out(line); }, error: (line) => io.err(line) })
      : undefined;
    const harFile = parsed.har && api?.recorder ? keepHarFile(api.recorder, parsed.har, (m) => io.err(`mockyard: ${m}`), { overwrite: parsed.overwrite }) : undefined;
    const stop = async () => {
      jsWatch?.close();
      await server.close();
      await harFile?.close();
      map?.close();
      await hostApp!.close();
    };
    if (config.logLevel !== 'silent') {
      io.out(`mockyard ${VERSION} listening on ${server.url}${configFile ? `  (config: ${configFile})` : ''}`);
      const source = (db ?? parsed.db) !== undefined ? `${db ?? parsed.db} (json-server layout${config.mock?.preset === 'json-server' ? ', json-server preset' : ''})` : typeof config.mock?.fsDir === 'string' ? config.mock.fsDir : null;
      for (const line of describeServing(server.url, hostApp.engines, source, fileRouting)) io.out(line);
      if (api && fileRouting) io.out(modeLine(api, configFile));
      if (parsed.har) io.out(`  HAR log of the session → ${parsed.har}`);
      const storage = collector && storageLine(collector);
      if (storage) io.out(storage);
      const openapi = config.mock?.openapi;
      if (openapi !== undefined && openapi !== null) io.out(`  Requests validated against the OpenAPI document ${documentName(typeof openapi === 'object' && 'document' in openapi ? openapi.document : openapi)}`);
      if (talk && api) for (const line of await documentResources(server.url, api)) io.out(line); // openapi-cli.ts
      if (talk) for (const line of startupMap(server.url, map && fileRouting ? await map.get() : undefined, served, true)) io.out(line);
      for (const note of parsed.notes) io.out(`  ${note}`);
      io.out('Press Ctrl+C to stop.');
    }
    return { server, stop };
  } catch (err) {
    map?.close();
    await hostApp?.close();
    io.err(prefixed(err));
    return { code: 1 };
  }
}

/** What json-server 0.17 writes into a db.json that does not exist (its `load.js`). */
const SAMPLE_DB = {
  posts: [{ id: 1, title: 'json-server', author: 'typicode' }],
  comments: [{ id: 1, body: 'some comment', postId: 1 }],
  profile: { name: 'typicode' },
};

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The mock API as the CLI host serves it: with `home`, browsers' `GET /` that the API does not
 * answer itself (its 404) get the home page (the prefix is `/` itself); at `/`, a request under
 * `/api` that nothing answers gets the engine's own 404 in the words of data-prefix.ts; with
 * `report`, CORS preflights (answered before the engine's pipeline and its observers) are logged.
 * The synchronous fast path is kept.
 */
function cliMockApi(api: MockApi, home: Engine | undefined, report: ((line: LogLine) => void) | undefined): Engine {
  const wrapped = Object.create(api) as MockApi;
  const rootPrefix = api.prefixes.includes('/');
  const wantsHome = (request: Request) => {
    if (!home) return false;
    const m = request.method.toUpperCase();
    return (m === 'GET' || m === 'HEAD') && splitUrl(request.url)[0] === '/' && (request.headers.get('accept') ?? '').includes('text/html');
  };
  const log = (request: Request, res: Response | undefined, start: number, what: string) => {
    if (!report || !res) return;
    const [pathname, search] = splitUrl(request.url);
    report({ method: request.method.toUpperCase(), pathname, search, status: res.status, ms: performance.now() - start, what });
  };
  // `/api/posts` when the data is at `/`: the engine's own 404 names where the data is (data-prefix.ts).
  const wrongPrefix = (request: Request) => {
    if (!rootPrefix) return;
    const message = wrongPrefixMessage(splitUrl(request.url)[0], api.prefixes);
    if (message !== undefined) sayWhenNotFound(request, message);
  };
  wrapped.handle = async (request) => {
    const start = performance.now();
    wrongPrefix(request);
    const res = await api.handle(request);
    // The API's own `GET /` (an OpenAPI document's, a handler's) wins; its 404 gives way to the home page.
    if (res?.status === 404 && wantsHome(request)) {
      const page = await home!.handle(request);
      log(request, page, start, 'home page');
      if (page) {
        if (fastState(res) === undefined) res.body?.cancel().catch(() => undefined);
        return api.adopt(request, async () => page); // sent as the API's own answers are
      }
    }
    if (report && request.method.toUpperCase() === 'OPTIONS' && request.headers.get('access-control-request-method') !== null && res?.status !== 405) log(request, res, start, 'CORS preflight');
    return res;
  };
  wrapped.handleCached = (request) => {
    if (wantsHome(request)) return undefined;
    wrongPrefix(request);
    return api.handleCached(request);
  };
  return wrapped;
}

function isMainModule(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMainModule()) {
  const stdout = lineBatch(process.stdout);
  const io: CliIo = {
    cwd: process.cwd(),
    color: process.stdout.isTTY === true && !process.env.NO_COLOR,
    out: (line) => stdout.write(line),
    err: (line) => {
      stdout.flush();
      process.stderr.write(`${line}\n`);
    },
  };
  const result = await main(process.argv.slice(2), io);
  if (result.code !== undefined) process.exit(result.code);
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1); // second Ctrl+C: do not wait
    stopping = true;
    io.out(`\nmockyard: ${signal}, closing…`);
    result.stop!().then(
      () => process.exit(0),
      (err: unknown) => {
        io.err(`mockyard: error while closing: ${(err as Error)?.message ?? String(err)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
