/**
 * THE prefix rule of the `mockyard` command: under which URL prefix the data it serves is found,
 * and what a request under the other prefix is told. The rule follows the command line the user
 * speaks, never what the data is (a file and a folder alike):
 *
 *   1. `--prefix P` (repeatable) wins;
 *   2. then the config file's `mock.endpointPrefix`;
 *   3. data named as json-server's command line names it — the positional argument, a file
 *      (`mockyard db.json`) or a folder (`mockyard mocks`) — is served at `/`, where json-server
 *      serves `/posts` (a package.json script keeps its URLs with only the command replaced);
 *      A HAR log served alone (`mockyard --har site.har`) is at `/` too: its entries answer at the
 *      paths they were recorded at (a browser's HAR of a whole site);
 *   4. everything else is under `/api`, mockyard's default in every host: `--fs-dir mocks`, the
 *      default ./mocks, a config file's `fsDir`/`db` (the same file gets `/api` in the Vite plugin
 *      and the middleware, where the app owns `/`), a recording session (so what
 *      `mockyard record --fs-dir mocks` recorded under `/api` replays there with `--fs-dir mocks`).
 *
 * A request that misses because it used the other prefix (`/api/posts` when the data is at `/`,
 * `/posts` when it is under `/api`) gets a 404 naming where the data is and the flag that moves it.
 * That 404 goes out as every other answer of the mock API (cli.ts): under the prefix `/` it is the
 * engine's own 404 with these words (engine/pipeline/not-found.ts), outside the prefixes the host's
 * 404 adopted by the mock API (`MockApi.adopt`: CORS, the preset's no-cache headers).
 */
/** The prefix json-server users know, and mockyard's library default. */
export const API_PREFIX = '/api';

export interface PrefixSources {
  /** `--prefix` values. */
  flag?: readonly string[];
  /** The config file's `mock.endpointPrefix`, if it sets one. */
  config?: string | readonly string[];
  /** Whether the data is the positional argument (`mockyard db.json`, `mockyard mocks`). */
  positional: boolean;
  /** Whether a HAR log is served alone (`mockyard --har site.har`, no data, no config). */
  harAlone?: boolean;
}

/** The mock API's prefix(es) for the command (rules 1–4 above; an OpenAPI document then places itself: openapi-cli.ts). */
export function dataPrefix(s: PrefixSources): string | readonly string[] {
  if (s.flag?.length) return s.flag.length === 1 ? s.flag[0]! : s.flag;
  if (s.config !== undefined) return s.config;
  return s.positional || s.harAlone ? '/' : API_PREFIX;
}

function under(prefix: string, pathname: string): string | undefined {
  if (prefix === '/') return pathname;
  if (pathname === prefix) return '/';
  return pathname.startsWith(`${prefix}/`) ? pathname.slice(prefix.length) : undefined;
}

/**
 * What the 404 says to a request that used the other prefix, or undefined when `pathname` is not
 * such a request. `prefixes` are the mock API's; a request under `/api` when the data is at `/`, or
 * outside every prefix when the data is under one, is told where it is.
 */
export function wrongPrefixMessage(pathname: string, prefixes: readonly string[]): string | undefined {
  if (prefixes.length === 0) return undefined;
  if (prefixes.includes('/')) {
    const rest = under(API_PREFIX, pathname);
    return rest === undefined ? undefined : `Not Found: the data is served at / (try ${rest}); start with --prefix ${API_PREFIX} to serve it under ${API_PREFIX}`;
  }
  if (prefixes.some((p) => under(p, pathname) !== undefined) || pathname === '/' || pathname === '/favicon.ico') return undefined;
  const p = prefixes[0]!;
  return `Not Found: the data is served under ${p} (try ${p}${pathname}); start with --prefix / to serve it at /`;
}
