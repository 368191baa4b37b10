/**
 * One story's mocks: `parameters.mockyard` → the story's session on the page's mock API (its
 * data, scenario, faults, delay), the story's handlers (mockyard's in front of the configured
 * ones, msw's in front of mockyard's routes), and what the story's `play` function asks
 * (`requests()`, `events()`). Host-neutral: it takes the engine and the worker's controls, so
 * the rules are tested in Node (test/storybook/) and the page only wires them (preview.ts).
 *
 *   session  undefined / true: a fresh private session per render, dropped when the next story
 *            loads (going back to a story starts over from the mocks);
 *            'name': a session of that name, shared by the stories that name it and kept across
 *            renders (its writes survive);
 *            false: no session (the mocks themselves, as the app's dev server sees them: writes
 *            stay for the rest of the tab's life; `scenario` switches the engine's).
 */
import { check, describe, isPlainObject, OptionsError } from '../core/options.js';
import type { MockApi } from '../engine/create-mock-api.js';
import type { DelayOption } from '../engine/delay.js';
import type { FaultOptions } from '../engine/faults/options.js';
import type { SessionOverride } from '../engine/sessions/overrides.js';
import type { GraphqlOperationHandler, RestHandler } from '../engine/types.js';
import type { JournalEntry } from '../devtools/journal.js';
import type { Journal } from '../devtools/journal.js';
import type { SeedTree } from '../vfs/seed.js';
import type { MswRequestHandler } from '../sw/msw-adapter.js';
import type { PageWorkerControls } from '../sw/start-worker.js';

/** A fault for one story: which requests (`method`, `path` below the prefix) and what fails. */
export interface StoryFault extends FaultOptions {
  method?: string;
  path: string;
  /** The failure's status (default 503), answered as the JSON error body. */
  status?: number;
}

/** `parameters.mockyard` of a story (or of its component, or of preview.ts: Storybook merges them). */
export interface MockyardParameters {
  /** Files written into the story's session before it renders: `{ 'items.json': [...] }` (a seed tree). */
  data?: SeedTree;
  /** The story's scenario (one of `mock.scenarios`); null: none. */
  scenario?: string | null;
  /**
   * Handlers for this story only: mockyard's (`{ method, pattern, handle }`, `graphql.query(…)`),
   * tried before the configured ones, and msw's (`http.get(…)`), tried before mockyard's routes.
   */
  handlers?: ReadonlyArray<RestHandler | GraphqlOperationHandler | MswRequestHandler>;
  /** Faults for this story (docs/sessions.md#faults-on-demand): `{ method, path, status, errorRate, delay, fault, seed }`. */
  faults?: readonly StoryFault[];
  /** A delay on every answer of this story: ms, `[min, max]` or `{ p50, p99 }`. */
  delay?: DelayOption;
  /** See the top of this file: a fresh private session (default), a named shared one, or none. */
  session?: boolean | string;
}

export interface StoryRequestFilter {
  method?: string;
  /** Exact status (`404`) or a class (`'4xx'`). */
  status?: string | number;
  /** Requests whose path starts with this (`/api/items`). */
  path?: string;
}

/** What a story's `play` function (and the decorators after the loader) get as `context.mockyard`. */
export interface StoryMockyard {
  /** The story's session id (null: `session: false`). */
  readonly session: string | null;
  /** The page's mock API (`api.ws.broadcast`, `api.sessions`…), undefined without one. */
  readonly api: MockApi | undefined;
  /** The requests this story sent to the mock API, oldest first (the devtools journal of its session). */
  requests(filter?: StoryRequestFilter): Promise<JournalEntry[]>;
  /** The tracker events stored by the in-page collector since this story started, oldest first. */
  events(): Promise<Array<Record<string, unknown>>>;
  /** Adds overrides to the story's session (docs/sessions.md#overrides). */
  use(...overrides: Array<SessionOverride | SessionOverride[]>): Promise<void>;
  /** The story's scenario (null: none). */
  scenario(name: string | null): Promise<void>;
  /** Back to the story's start: its session afresh with the story's parameters applied again. */
  reset(): Promise<void>;
}

const KEYS = ['data', 'scenario', 'handlers', 'faults', 'delay', 'session'] as const;
const AT = 'parameters.mockyard';

/** What a story runs on: the page's engines and the worker's controls. */
export interface StoryHost {
  readonly api: MockApi | undefined;
  readonly controls: Pick<PageWorkerControls, 'session' | 'use' | 'resetHandlers'>;
  readonly journal: Journal | null;
  /** Reads the collector (`GET {basePath}/events`), or undefined without one. */
  readonly readEvents?: (since: number) => Promise<Array<Record<string, unknown>>>;
}

export interface StoryInput {
  /** Storybook's story id (`items--list`). */
  id: string;
  /** `parameters.mockyard`. */
  parameters: unknown;
  /** `parameters.msw` (msw-storybook-addon's form: an array, or `{ handlers: [...] | { name: [...] } }`). */
  msw?: unknown;
  /** 'docs': the stories of a docs page render together (their sessions are all kept). */
  viewMode?: string;
  /**
   * What the story renders with besides its id (its args and globals, as text): Storybook runs
   * the loaders again when a control or a toolbar item changes them, on the story already shown,
   * whose component keeps its state; the story then keeps its session. The same story loaded
   * with the same args and globals (shown again, or remounted) starts afresh.
   */
  renderKey?: string;
}

/** The stories of one page (one tab): which session is whose, and what each story added. */
export class StoryRunner {
  #serial = 0;
  /** The private sessions of stories rendered on this page, dropped when another story loads. */
  #private: string[] = [];
  /** The story shown last (story mode): its id, render key and context value. */
  #current: { id: string; key: string | undefined; mockyard: StoryMockyard } | undefined;

  constructor(private readonly host: StoryHost) {}

  /** Applies a story's parameters before it renders; resolves to its `context.mockyard`. */
  async begin(story: StoryInput): Promise<StoryMockyard> {
    const p = checkParameters(story.parameters);
    const mswHandlers = [...mswParameter(story.msw), ...(p.handlers ?? []).filter(isMswHandler)] as MswRequestHandler[];
    const ownHandlers = (p.handlers ?? []).filter((h) => !isMswHandler(h)) as Array<RestHandler | GraphqlOperationHandler>;
    const { api, controls, journal } = this.host;
    if (api === undefined && (p.data || p.scenario || ownHandlers.length || p.faults || p.delay !== undefined)) {
      throw new OptionsError(AT, 'needs the mock API: initialize({ mock: { … } })');
    }
    const docs = story.viewMode === 'docs';
    const current = this.#current;
    if (!docs && current !== undefined && current.id === story.id && current.key !== story.renderKey) {
      current.key = story.renderKey;
      return current.mockyard;
    }
    if (!docs) {
      for (const id of this.#private.splice(0)) api?.sessions.remove(id);
      // The devtools overlay shows the current story's journal.
      journal?.clear();
    }
    api?.resetHandlers();
    controls.resetHandlers();

    const session = p.session === false ? null : typeof p.session === 'string' ? p.session : this.#privateId(story.id);
    const started = Date.now();
    const apply = async (fresh: boolean): Promise<void> => {
      if (api === undefined) return;
      if (session === null) {
        if (p.data || p.faults || p.delay !== undefined) throw new OptionsError(`${AT}.session`, 'is false: data, faults and delay need a session (leave session out for a private one)');
        api.useScenario(p.scenario ?? null);
        return;
      }
      // A named session keeps its writes across renders: only its scenario and overrides are the story's again.
      const existed = api.sessions.get(session) !== undefined;
      if (fresh) api.sessions.reset(session);
      else api.sessions.clearOverrides(session);
      api.sessions.create(session, { scenario: p.scenario ?? null, overrides: storyOverrides(p) });
      if (p.data && (fresh || !existed)) await api.sessions.write(session, p.data);
    };
    await apply(typeof p.session !== 'string');
    if (ownHandlers.length > 0) api!.use(...ownHandlers);
    if (mswHandlers.length > 0) controls.use(...mswHandlers);
    if (session !== null && p.session !== session) this.#private.push(session);
    controls.session = session ?? undefined;

    const requests = async (filter: StoryRequestFilter = {}): Promise<JournalEntry[]> => {
      if (journal === null) throw new Error('mockyard/storybook: requests() needs the devtools journal (devtools and mock.journal on)');
      const entries = journal.list({
        ...(session !== null ? { session } : {}),
        ...(filter.method !== undefined ? { method: filter.method } : {}),
        ...(filter.status !== undefined ? { status: String(filter.status) } : {}),
        ...(filter.path !== undefined ? { path: filter.path } : {}),
      });
      return entries.filter((e) => session !== null || e.time >= started).reverse();
    };
    const mockyard: StoryMockyard = {
      session,
      api,
      requests,
      events: async () => (this.host.readEvents ? this.host.readEvents(started) : []),
      use: async (...overrides) => {
        if (api === undefined || session === null) throw new OptionsError(`${AT}.session`, 'use() needs the story\'s session (session is false)');
        api.sessions.addOverrides(session, overrides.flat());
      },
      scenario: async (name) => {
        if (api === undefined) throw new OptionsError(AT, 'needs the mock API');
        if (session === null) api.useScenario(name);
        else api.sessions.useScenario(session, name);
      },
      reset: () => apply(true),
    };
    this.#current = docs ? undefined : { id: story.id, key: story.renderKey, mockyard };
    return mockyard;
  }

  #privateId(storyId: string): string {
    const safe = storyId.replace(/[^A-Za-z0-9._:~-]/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 100);
    return `${safe || 'story'}.${++this.#serial}`;
  }
}

/** The story's faults and delay as session overrides (a fault rule fails every matching request unless it says `errorRate`). */
export function storyOverrides(p: MockyardParameters): SessionOverride[] {
  const out: SessionOverride[] = [];
  for (const f of p.faults ?? []) {
    const failing = f.status !== undefined || f.fault !== undefined;
    out.push({ ...f, ...(failing && f.errorRate === undefined ? { errorRate: 1 } : {}) } as SessionOverride);
  }
  if (p.delay !== undefined) out.push({ method: '*', path: '/**', delay: p.delay });
  return out;
}

/** Validates `parameters.mockyard` (OptionsError naming the field). */
export function checkParameters(value: unknown): MockyardParameters {
  if (value === undefined || value === null) return {};
  const p = check.object(value, AT)!;
  check.knownKeys(p, AT, KEYS);
  if (p.data !== undefined && !isPlainObject(p.data)) throw new OptionsError(`${AT}.data`, `must be an object of file paths to contents ({ 'items.json': [...] }) (got ${describe(p.data)})`);
  if (p.scenario !== undefined && p.scenario !== null) check.string(p.scenario, `${AT}.scenario`, undefined, { nonEmpty: true });
  if (p.handlers !== undefined && !Array.isArray(p.handlers)) throw new OptionsError(`${AT}.handlers`, `must be an array of handlers (got ${describe(p.handlers)})`);
  if (p.faults !== undefined) {
    if (!Array.isArray(p.faults)) throw new OptionsError(`${AT}.faults`, `must be an array of fault rules ({ path, status, errorRate, delay, fault }) (got ${describe(p.faults)})`);
    p.faults.forEach((f, i) => {
      if (!isPlainObject(f)) throw new OptionsError(`${AT}.faults[${i}]`, `must be an object { method, path, status, errorRate, delay, fault, seed } (got ${describe(f)})`);
    });
  }
  if (p.session !== undefined && typeof p.session !== 'boolean' && typeof p.session !== 'string') {
    throw new OptionsError(`${AT}.session`, `must be true, false or a session name (got ${describe(p.session)})`);
  }
  return p as MockyardParameters;
}

/** msw's handlers (instances of its RequestHandler / WebSocketHandler): they carry `info` and `run`. */
function isMswHandler(h: unknown): boolean {
  return typeof h === 'object' && h !== null && 'info' in h && typeof (h as { run?: unknown }).run === 'function';
}

/** msw-storybook-addon's `parameters.msw`: an array, or `{ handlers: [...] | { name: [...] | null } }`. */
function mswParameter(value: unknown): MswRequestHandler[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.filter(Boolean) as MswRequestHandler[];
  const handlers = (value as { handlers?: unknown }).handlers;
  if (handlers === undefined || handlers === null) return [];
  const lists = Array.isArray(handlers) ? [handlers] : Object.values(handlers as Record<string, unknown>);
  return lists.flat().filter(Boolean) as MswRequestHandler[];
}
