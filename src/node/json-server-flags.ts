/**
 * json-server 0.17's command line, accepted by `mockyard` with json-server's meaning, so a
 * `package.json` script works with only `json-server` replaced by `mockyard`:
 *
 *   json-server --watch db.json --port 3004 --routes routes.json --static ./public
 *
 * `jsonServerFlags(argv, cwd)` takes the arguments before mockyard's own parser: json-server's
 * flags (long names, aliases and short letters) become mockyard flags (`-H` → `--host`, `-d` →
 * `--delay`, `--nc` → `--no-cors`, …) or mock API options (`routes`, `static`, `readOnly`,
 * `middlewares`, `collections.idField`); flags mockyard has no use for (`--watch`: it always
 * watches) are dropped with one line saying why. `--config json-server.json` (and a
 * `json-server.json` in the working folder, as json-server reads it) holds the same settings.
 * Data files other than `.json` (`db.js`, `db.cjs`, `db.mjs` exporting the data or a function
 * returning it, as json-server's "generate random data"; `db.json5`) are loaded here and served
 * from memory. An unknown flag gets "did you mean".
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { closest } from '../core/options.js';
import type { MiddlewareFunction } from '../engine/types.js';
import type { MockApiOptions } from '../engine/mock-api-options.js';
import { memoryFs } from '../vfs/memory.js';

/** A mistake in json-server's flags (the CLI prints it with its usage hint, exit 2). */
export class JsonServerFlagError extends Error {}

/** What json-server's flags add to the mock API options. */
export type JsonServerMock = Pick<MockApiOptions, 'routes' | 'static' | 'readOnly' | 'middlewares' | 'collections' | 'fs' | 'db' | 'store'>;

export interface JsonServerArgs {
  /** The arguments for mockyard's own parser (json-server's spellings turned into mockyard's). */
  argv: string[];
  mock: JsonServerMock;
  /** One line per flag accepted without effect, saying why. */
  notes: string[];
  /** The routes.json and middleware files read (absolute), watched while the server runs (json-server-watch.ts). */
  files: { routes?: string; middlewares: string[] };
}

/** json-server flags spelled as mockyard's (same meaning): alias → mockyard flag. */
const SAME: Record<string, string> = { '-H': '--host', '-d': '--delay', '-q': '--quiet', '--nc': '--no-cors' };
/** json-server flags taking a value that mockyard handles here. */
const VALUED = new Map<string, string>([
  ['--routes', 'routes'], ['-r', 'routes'],
  ['--static', 'static'], ['-s', 'static'],
  ['--id', 'id'], ['-i', 'id'],
  ['--foreignKeySuffix', 'fks'], ['--fks', 'fks'],
]);
/** json-server flags whose value is optional (`--snapshots` alone means `.`, as 0.17's default). */
const OPTIONAL_VALUE = new Set(['--snapshots', '-S']);
const BOOLEAN = new Map<string, string>([
  ['--watch', 'watch'], ['-w', 'watch'],
  ['--read-only', 'readOnly'], ['--ro', 'readOnly'],
  ['--no-gzip', 'noGzip'], ['--ng', 'noGzip'],
]);
const MIDDLEWARES = new Set(['--middlewares', '-m']);
/** mockyard's own flags as cli.ts declares them for `parseArgs` (passed through untouched). */
export type FlagSpecs = Readonly<Record<string, { readonly type: 'string' | 'boolean'; readonly short?: string; readonly multiple?: boolean }>>;

/** Data files served from memory (json-server reads them; only `.json` is written back). */
export const DATA_FILE = /\.(json|json5|js|cjs|mjs)$/i;

const NOTES: Record<string, string> = {
  watch: '--watch: mockyard always watches the data file, routes.json and the middlewares (an edit is served by the next request)',
  noGzip: '--no-gzip: mockyard does not compress answers',
  snapshots: '--snapshots: mockyard takes no snapshots (db.json holds every write; copy it to keep one)',
};

interface Collected {
  routes?: string;
  fks?: string;
  static: string[];
  id?: string;
  readOnly?: boolean;
  middlewares: string[];
  noted: Set<string>;
}

function settingsFromConfig(file: string, into: Collected, argv: string[]): void {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new JsonServerFlagError(`cannot read the json-server config ${file}: ${(err as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new JsonServerFlagError(`${file} must hold a JSON object of json-server settings ({ "port": 3000, … })`);
  const known = ['port', 'host', 'watch', 'routes', 'middlewares', 'static', 'readOnly', 'read-only', 'noCors', 'no-cors', 'noGzip', 'no-gzip', 'snapshots', 'delay', 'id', 'foreignKeySuffix', 'quiet'];
  for (const [key, v] of Object.entries(value)) {
    if (!known.includes(key)) {
      const hint = closest(key, known);
      throw new JsonServerFlagError(`${file}: "${key}" is not a json-server setting${hint ? ` (did you mean "${hint}"?)` : ''}`);
    }
    const text = String(v);
    switch (key) {
      case 'port': case 'host': case 'delay':
        if (!argv.includes(`--${key}`)) argv.push(`--${key}`, text);
        break;
      case 'quiet': if (v === true) argv.push('--quiet'); break;
      case 'noCors': case 'no-cors': if (v === true) argv.push('--no-cors'); break;
      case 'readOnly': case 'read-only': if (v === true) into.readOnly = true; break;
      case 'routes': into.routes ??= text; break;
      case 'static': into.static.push(text); break;
      case 'id': into.id ??= text; break;
      case 'middlewares': into.middlewares.push(...(Array.isArray(v) ? v.map(String) : [text])); break;
      case 'foreignKeySuffix': into.fks ??= suffix(text, `${file}: foreignKeySuffix`); break;
      case 'watch': into.noted.add('watch'); break;
      case 'noGzip': case 'no-gzip': into.noted.add('noGzip'); break;
      case 'snapshots': into.noted.add('snapshots'); break;
    }
  }
}

/** Reads json-server's flags out of `argv` (see the module comment). */
export async function jsonServerFlags(args: readonly string[], cwd: string, own: FlagSpecs): Promise<JsonServerArgs> {
  const argv = args;
  const ownFlags = Object.entries(own).flatMap(([name, spec]) => [`--${name}`, ...(spec.short ? [`-${spec.short}`] : [])]);
  const valued = new Set(Object.entries(own).filter(([, spec]) => spec.type === 'string').flatMap(([name, spec]) => [`--${name}`, ...(spec.short ? [`-${spec.short}`] : [])]));
  const known = [...ownFlags.filter((f) => f.startsWith('--')), ...Object.keys(SAME), ...VALUED.keys(), ...OPTIONAL_VALUE, ...BOOLEAN.keys(), ...MIDDLEWARES];
  const out: string[] = [];
  const c: Collected = { static: [], middlewares: [], noted: new Set() };
  let config: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    let raw = argv[i]!;
    if (raw === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const eq = raw.startsWith('--') ? raw.indexOf('=') : -1;
    const flag = eq === -1 ? raw : raw.slice(0, eq);
    let inline = eq === -1 ? undefined : raw.slice(eq + 1);
    const take = (): string => {
      if (inline !== undefined) return inline;
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('-') && next !== '-')) throw new JsonServerFlagError(`${flag} needs a value`);
      i++;
      return next;
    };
    const ownBoolean = own[flag.replace(/^--?/, '')]?.type === 'boolean' || Object.values(own).some((spec) => spec.type === 'boolean' && `-${spec.short}` === flag);
    if (inline !== undefined && (BOOLEAN.has(flag) || ownBoolean || (SAME[flag] !== undefined && own[SAME[flag]!.slice(2)]?.type === 'boolean'))) {
      // 0.17's boolean flags in yargs' `--flag=value` form: true/false (also 1/0, yes/no).
      if (!booleanValue(flag, inline)) continue;
      raw = flag;
      inline = undefined;
    }
    if (!flag.startsWith('-') || flag === '-') {
      out.push(raw);
    } else if (OPTIONAL_VALUE.has(flag)) {
      // --snapshots [DIR] (0.17's default: `.`): the next argument is its value unless it is a flag or a data file.
      if (inline === undefined && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('-') && !DATA_FILE.test(argv[i + 1]!)) i++;
      c.noted.add('snapshots');
    } else if (SAME[flag]) {
      out.push(inline === undefined ? SAME[flag]! : `${SAME[flag]}=${inline}`);
    } else if ((flag === '--config' || flag === '-c') && (inline ?? argv[i + 1] ?? '').toLowerCase().endsWith('.json')) {
      config = resolve(cwd, take());
    } else if (VALUED.has(flag)) {
      const key = VALUED.get(flag)!;
      const value = take();
      if (key === 'routes') c.routes = value;
      else if (key === 'static') c.static.push(value);
      else if (key === 'id') c.id = value;
      else if (key === 'fks') c.fks = suffix(value, flag);
    } else if (BOOLEAN.has(flag)) {
      const key = BOOLEAN.get(flag)!;
      if (key === 'readOnly') c.readOnly = true;
      else c.noted.add(key);
    } else if (MIDDLEWARES.has(flag)) {
      if (inline !== undefined) c.middlewares.push(inline);
      else {
        const before = c.middlewares.length;
        while (argv[i + 1] !== undefined && /\.(c|m)?js$/i.test(argv[i + 1]!) && !argv[i + 1]!.startsWith('-')) c.middlewares.push(argv[++i]!);
        if (c.middlewares.length === before) throw new JsonServerFlagError(`${flag} needs one or more .js files`);
      }
    } else if (ownFlags.includes(flag)) {
      out.push(raw);
    } else {
      const hint = flag.startsWith('--') ? closest(flag, known) : undefined;
      throw new JsonServerFlagError(`unknown option ${flag}${hint ? ` (did you mean ${hint}?)` : ''}`);
    }
  }
  const defaultConfig = resolve(cwd, 'json-server.json');
  if (config === undefined && existsSync(defaultConfig)) config = defaultConfig;
  if (config !== undefined) settingsFromConfig(config, c, out);

  const positional = out.find((a, i) => !a.startsWith('-') && (i === 0 || !valued.has(out[i - 1]!)));
  const mock: JsonServerMock = {};
  if (c.routes !== undefined) mock.routes = readRoutes(resolve(cwd, c.routes));
  if (c.static.length > 0) mock.static = c.static.map((s) => folder(resolve(cwd, s), '--static'));
  else if (positional !== undefined && DATA_FILE.test(positional) && isFolder(resolve(cwd, 'public'))) mock.static = [resolve(cwd, 'public')]; // json-server's default
  if (c.id !== undefined) mock.collections = { idField: c.id };
  if (c.readOnly) mock.readOnly = true;
  if (c.fks !== undefined) mock.store = { foreignKeySuffix: c.fks };
  if (c.middlewares.length > 0) mock.middlewares = await Promise.all(c.middlewares.map((m) => loadMiddleware(resolve(cwd, m))));
  if (positional !== undefined && DATA_FILE.test(positional) && !positional.toLowerCase().endsWith('.json')) {
    const data = await loadData(resolve(cwd, positional));
    mock.fs = memoryFs({ 'db.json': `${JSON.stringify(data, null, 2)}\n` });
    mock.db = 'db.json';
  }
  const files = { ...(c.routes !== undefined ? { routes: resolve(cwd, c.routes) } : {}), middlewares: c.middlewares.map((m) => resolve(cwd, m)) };
  return { argv: out, mock, notes: [...c.noted].map((k) => NOTES[k]!), files };
}

/** yargs' reading of a boolean flag's inline value. */
function booleanValue(flag: string, value: string): boolean {
  const v = value.toLowerCase();
  if (v === 'true' || v === '1' || v === 'yes' || v === '') return true;
  if (v === 'false' || v === '0' || v === 'no') return false;
  throw new JsonServerFlagError(`${flag} is a switch: give it alone, or ${flag}=true / ${flag}=false (got "${value}")`);
}

/** A foreign-key suffix (`--fks _id`: `post_id` → posts). */
function suffix(value: string, flag: string): string {
  if (value.trim() === '' || /[\s/]/.test(value)) throw new JsonServerFlagError(`${flag} must be a field-name suffix such as Id or _id (got "${value}")`);
  return value;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function folder(path: string, flag: string): string {
  if (!isFolder(path)) throw new JsonServerFlagError(`${flag} ${path}: no such folder`);
  return path;
}

/** routes.json's rules (JsonServerFlagError naming the file when it cannot be read or is not JSON). */
export function readRoutes(file: string): Record<string, string> {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new JsonServerFlagError(code === 'ENOENT' ? `--routes ${file}: not found` : `--routes ${file}: ${(err as Error).message}`);
  }
  return value as Record<string, string>; // checked by the engine (mock.routes)
}

/** `fresh`: import the file again (a new URL for ES modules, CommonJS dropped from require's cache first). */
async function importModule(file: string, fresh?: number): Promise<unknown> {
  if (fresh !== undefined) delete createRequire(import.meta.url).cache[file];
  const url = pathToFileURL(file).href;
  const mod = (await import(fresh === undefined ? url : `${url}?mockyard-reload=${fresh}`)) as { default?: unknown };
  return 'default' in mod ? mod.default : mod;
}

/** A middleware file's function; `fresh` (a reload's number): read the file again, not the module cache's copy. */
export async function loadMiddleware(file: string, fresh?: number): Promise<MiddlewareFunction> {
  let fn: unknown;
  try {
    fn = await importModule(file, fresh);
  } catch (err) {
    throw new JsonServerFlagError(`--middlewares ${file}: ${(err as Error).message}`);
  }
  if (typeof fn !== 'function') throw new JsonServerFlagError(`--middlewares ${file} must export a function (req, res, next) (module.exports = … or export default …)`);
  return fn as MiddlewareFunction;
}

/** The data of a `.js`/`.cjs`/`.mjs` (the export, or what the exported function returns) or `.json5` file. */
async function loadData(file: string): Promise<unknown> {
  let data: unknown;
  try {
    if (/\.json5$/i.test(file)) {
      const { default: JSON5 } = await import('json5');
      data = JSON5.parse(readFileSync(file, 'utf8'));
    } else {
      data = await importModule(file);
      if (typeof data === 'function') data = await (data as () => unknown)();
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new JsonServerFlagError(code === 'ENOENT' || code === 'ERR_MODULE_NOT_FOUND' ? `${file} not found` : `cannot load ${file}: ${(err as Error).message}`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new JsonServerFlagError(`${file} must give an object whose keys are the resources, e.g. { posts: [], profile: {} }`);
  return data;
}
