/**
 * Finding and loading `mockyard.config.{js,mjs,ts}`.
 *
 * - Looked up in the working directory in that order, or given with `--config FILE`.
 * - The default export is the config object (`defineConfig({...})`) or a function returning it
 *   (sync or async).
 * - A relative `mock.fsDir` resolves against the config file's folder; absolute paths are kept.
 * - `.ts` files: Node >= 22.6 with type stripping (`process.features.typescript`) imports them
 *   directly. On Node 20 they are transpiled with the `transformWithOxc` of the project's own
 *   Vite (resolved from the config file's folder), written beside the config as a temporary
 *   `.mjs` and imported; without Vite a clear error says to use `mockyard.config.mjs`. Only the
 *   config file itself is transpiled: it may import `.js`/`.mjs` modules and packages, not other
 *   `.ts` files.
 */
import { existsSync, statSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, extname, isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MockyardConfig } from '../define-config.js';
import { check, isPlainObject, OptionsError, describe } from '../core/options.js';
import { LOG_LEVELS } from '../core/logger.js';
import { configLoadError } from './config-error.js';

export const CONFIG_NAMES = ['mockyard.config.js', 'mockyard.config.mjs', 'mockyard.config.ts'] as const;
const CONFIG_KEYS = ['mock', 'tracker', 'port', 'host', 'logLevel', 'devtools'] as const;

/** The first config file in `dir`, or `undefined`. */
export function findConfigFile(dir: string): string | undefined {
  for (const name of CONFIG_NAMES) {
    const file = join(dir, name);
    if (existsSync(file)) return file;
  }
  return undefined;
}

const TS_HELP =
  'cannot load a .ts config on this Node version: Node >= 22.6 strips types itself, and on Node 20 ' +
  'mockyard uses your project\'s Vite to transpile it (not found). Rename it to mockyard.config.mjs ' +
  '(add `/** @type {import(\'mockyard\').MockyardConfig} */` for editor types) or install vite.';

async function importTypeScript(file: string): Promise<unknown> {
  if ((process.features as { typescript?: unknown }).typescript) return import(pathToFileURL(file).href);
  type Vite = { transformWithOxc(code: string, filename: string, options?: object): Promise<{ code: string }> };
  let vite: Vite;
  try {
    const local = createRequire(file).resolve('vite');
    vite = (await import(pathToFileURL(local).href)) as Vite;
  } catch {
    try {
      vite = (await import('vite' as string)) as Vite;
    } catch {
      throw new Error(`mockyard: ${basename(file)}: ${TS_HELP}`);
    }
  }
  if (typeof vite.transformWithOxc !== 'function') throw new Error(`mockyard: ${basename(file)}: ${TS_HELP}`);
  const { code } = await vite.transformWithOxc(await readFile(file, 'utf8'), file, { lang: 'ts' });
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${Date.now()}.mjs`);
  await writeFile(temp, code);
  try {
    return await import(pathToFileURL(temp).href);
  } catch (err) {
    // name the file the user wrote, not the temporary one (lines are the transpiled file's)
    throw configLoadError(err, temp, (p) => (p === temp ? file : p));
  } finally {
    await rm(temp, { force: true });
  }
}

/** Checks the top level of a config; option details are checked by the engines themselves. */
export function checkConfig(value: unknown, source: string): MockyardConfig {
  if (!isPlainObject(value)) throw new OptionsError('default export', `of ${source} must be a config object (defineConfig({...})), got ${describe(value)}`);
  check.knownKeys(value, '', CONFIG_KEYS);
  const config = value as MockyardConfig;
  if (config.mock !== undefined) check.object(config.mock, 'mock');
  if (config.tracker !== undefined && config.tracker !== false) check.object(config.tracker, 'tracker');
  check.number(config.port, 'port', 0, { min: 0, max: 65535, integer: true });
  check.string(config.host, 'host', undefined, { nonEmpty: true });
  check.oneOf(config.logLevel, 'logLevel', LOG_LEVELS, 'info');
  return config;
}

/** Loads, validates and path-resolves a config file. */
export async function loadConfigFile(file: string): Promise<MockyardConfig> {
  const abs = resolve(file);
  if (!existsSync(abs)) throw new Error(`config file not found: ${file}`);
  const ext = extname(abs);
  if (!['.ts', '.mts', '.js', '.mjs', '.cjs'].includes(ext)) throw new Error(`config file must end in .js, .mjs or .ts: ${file}`);
  let value: unknown;
  try {
    let mod: unknown;
    if (ext === '.ts' || ext === '.mts') mod = await importTypeScript(abs);
    // The mtime in the URL makes a changed file load afresh in a long-lived process (tests, reloads).
    else mod = await import(`${pathToFileURL(abs).href}?t=${statSync(abs).mtimeMs}`);
    value = (mod as { default?: unknown }).default;
    if (typeof value === 'function') value = await (value as () => unknown)();
  } catch (err) {
    // syntax errors and errors thrown while the config runs: file, line and column
    throw err instanceof Error && err.message.startsWith('mockyard: ') ? err : configLoadError(err, abs);
  }
  const config = checkConfig(value, basename(abs));
  return resolveConfigPaths(config, dirname(abs));
}

/**
 * A copy of `config` whose relative `mock.openapi` path is made absolute against `baseDir`, and
 * whose relative `mock.fsDir` (and `mock.db`) is made absolute against `baseDir` (unless the
 * config brings its own `mock.fs`, where they are paths inside that filesystem).
 */
export function resolveConfigPaths(config: MockyardConfig, baseDir: string): MockyardConfig {
  let mock = config.mock;
  if (!mock) return config;
  // A relative `mock.openapi` path too (URLs are left to the parser).
  const relative = (p: unknown): p is string => typeof p === 'string' && !isAbsolute(p) && !/^[a-z][a-z0-9+.-]*:\/\//i.test(p);
  const doc = mock.openapi;
  if (relative(doc)) mock = { ...mock, openapi: resolve(baseDir, doc) };
  else if (doc && typeof doc === 'object' && 'document' in doc && relative(doc.document)) {
    mock = { ...mock, openapi: { ...doc, document: resolve(baseDir, doc.document) } };
  }
  if (!mock.fs) {
    const fsDir = typeof mock.fsDir === 'string' && !isAbsolute(mock.fsDir) ? resolve(baseDir, mock.fsDir) : mock.fsDir;
    const db = typeof mock.db === 'string' && !isAbsolute(mock.db) ? resolve(baseDir, mock.db) : mock.db;
    if (fsDir !== mock.fsDir || db !== mock.db) mock = { ...mock, fsDir, ...(db !== undefined ? { db } : {}) };
  }
  return mock === config.mock ? config : { ...config, mock };
}
