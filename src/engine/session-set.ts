/**
 * The sessions of one engine: a request that carries a session id (selection/session.ts) walks a pipeline
 * of its own, built from the same recipe as the base's or its scenario's (buildLayers), over a
 * private copy-on-write view of the mock data:
 *
 *   files    overlayFs(deltaFs(), the pipeline's Vfs): reads fall through to the mocks, writes
 *            stay in the session's delta (src/vfs/delta.ts), the mocks are never written;
 *   caches   the session's file cache shares every entry of the cache below for the files the
 *            session did not change (file-cache.ts SharedBelow): a session that only reads costs
 *            no copy of any file; a write to one item of a collection keeps the new array of
 *            references to the items (8 bytes a row), the items themselves shared;
 *   overrides the session's route overrides (overrides.ts), then its saved scenario's, read per
 *            request by the route-overrides layer (sessions/layer.ts, the one
 *            mechanism the shared overrides and saved scenarios use too): adding or undoing one
 *            rebuilds nothing;
 *   handlers the scenario's and base's; `req.app.fs` and `req.app.store` are the session's view;
 *   layers   openapi and proxy (no data of their own) are the base's, reused, never closed here.
 *
 * Sessions are created on first use (or over the admin API), dropped after `idleTimeout` without
 * a request, and at most `max` are kept: creating one more drops the one idle longest (logged).
 * Everything a session holds goes with it (its pipeline is closed).
 */
import { HttpError } from '../core/errors.js';
import { KeyedQueue } from '../core/keyed-queue.js';
import type { Logger } from '../core/logger.js';
import { deltaFs, type DeltaVfs } from '../vfs/delta.js';
import { overlayFs } from '../vfs/overlay.js';
import { joinVfsPath } from '../vfs/path.js';
import { seedEntries, type SeedTree } from '../vfs/seed.js';
import type { Vfs } from '../vfs/types.js';
import type { RequestContext } from './context.js';
import type { ResolvedMockApiOptions } from './options.js';
import { buildLayers, type BuiltLayers } from './layers.js';
import type { Layer } from './pipeline/layer.js';
import type { Exchange } from '../core/exchange.js';
import { createPipeline, type Pipeline } from './pipeline/run.js';
import type { ScenarioSet } from './scenario-pipelines.js';
import { requestedScenario } from './selection/scenario.js';
import type { EngineServices } from './services.js';
import type { MockApiApp } from './types.js';
import type { CollectionStore } from './store-contract/contract.js';
import type { ResolvedSessions } from './sessions/options.js';
import type { SessionOverride } from './sessions/overrides.js';
import type { OverrideSource } from './sessions/layer.js';
import { checkOverrides, type RouteOverrides } from './route-overrides.js';
import { checkSessionId, requestedSession } from './selection/session.js';

/** What the admin API and `api.sessions` show of a session. */
export interface SessionInfo {
  readonly id: string;
  /** Epoch ms. */
  readonly created: number;
  readonly lastUsed: number;
  /** The scenario chosen for this session (null: none; the request's or the engine's applies). */
  readonly scenario: string | null;
  readonly overrides: readonly SessionOverride[];
  /** Changes made to the session's data (writes, creates, removals). */
  readonly changes: number;
  /** Files the session holds its own version of. */
  readonly files: number;
}

/** Observes the exchanges of session pipelines: `scenario` the scenario walked, `session` the id. */
export type SessionObserver = (x: Exchange, scenario: string | null, session: string | null) => void;

export interface SessionControl {
  /** Creates a session (a new id when none is given; an existing one is returned as is). */
  create(id?: string, init?: { scenario?: string | null; overrides?: unknown[] }): SessionInfo;
  get(id: string): SessionInfo | undefined;
  /** Every live session, most recently used first. */
  list(): SessionInfo[];
  /** Back to a fresh session: its data, overrides and scenario dropped. undefined: no such session. */
  reset(id: string): SessionInfo | undefined;
  /** Drops a session; false when there was none. */
  remove(id: string): boolean;
  /** Sets the session's scenario (null: none); creates the session when needed. 400 for an unknown name. */
  useScenario(id: string, name: string | null): SessionInfo;
  /** Adds overrides (validated: 400 naming the field); creates the session when needed. */
  addOverrides(id: string, overrides: readonly unknown[]): SessionInfo;
  /** Removes the session's overrides. */
  clearOverrides(id: string): SessionInfo | undefined;
  /**
   * Writes files into the session's data, as its own writes (the mocks are never written),
   * creating the session when needed: `{ 'items.json': [...] }`, paths below the mocks folder
   * (the session's scenario's, when it has one), values as a seed tree (src/vfs/seed.ts).
   */
  write(id: string, files: SeedTree): Promise<SessionInfo>;
  /** Removes the session's override at `index` (as `overrides` lists them, newest first): undo. undefined: no such session or index. */
  removeOverride(id: string, index: number): SessionInfo | undefined;
  /**
   * The session's collection store (its copy-on-write view of the data: the same validation, ids,
   * relations and change events as the shared store); creates the session when needed.
   */
  store(id: string): CollectionStore;
  /**
   * The session's view of the mocks folder: its filesystem (reads fall through to the mocks,
   * writes stay in the session's data, counted as its changes) and the folder in it (its
   * scenario's, when it has one) and its per-file write queue (the one its own writes take, so an
   * edit of its files takes its turn among them); creates the session when needed. 404 when file
   * routing is off.
   */
  files(id: string): { vfs: Vfs; fsDir: string; queue: KeyedQueue };
}

export interface SessionSet extends SessionControl {
  readonly enabled: boolean;
  /** The pipeline of the session `ctx` names (created on first use); undefined: the request names none. */
  pipelineFor(ctx: RequestContext): Pipeline | Response | undefined;
  observe(fn: SessionObserver): () => void;
  close(): Promise<void>;
}

export interface SessionSetSources {
  settings: ResolvedSessions;
  options: ResolvedMockApiOptions;
  services: EngineServices;
  logger: Logger;
  scenarios: ScenarioSet;
  /** The saved scenarios' overrides (route-overrides.ts). */
  routeOverrides: RouteOverrides;
}

interface Built {
  /** The scenario the pipeline is layered over (null: the base). */
  readonly scenario: string | null;
  readonly version: number;
  readonly pipeline: Pipeline;
  readonly own: readonly Layer[];
  readonly vfs: Vfs | null;
  /** Stops relaying its exchanges to the session observers. */
  readonly off: () => void;
  /** The session's collection store (undefined when the recipe has no files layer). */
  readonly store: CollectionStore | undefined;
  /** The session's per-file write queue (its files' writers: store, file mode, the devtools' file edits). */
  readonly queue: KeyedQueue;
}

interface Session {
  readonly id: string;
  readonly created: number;
  lastUsed: number;
  scenario: string | null;
  overrides: SessionOverride[];
  delta: DeltaVfs;
  changes: number;
  /** Bumped on a reset: the pipeline is built again. */
  version: number;
  built: Built | undefined;
  offDelta: () => void;
}

let generated = 0;

function newId(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  return c?.randomUUID ? c.randomUUID() : `s${Date.now().toString(36)}-${(++generated).toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

export function createSessionSet({ settings, options, services, logger, scenarios, routeOverrides }: SessionSetSources): SessionSet {
  const { enabled, idleTimeout, max, clock } = settings;
  const sessions = new Map<string, Session>();
  const observers: SessionObserver[] = [];
  let lastSweep = 0;
  const forward = options.noHandledRestFsRequestsAction === 'forward';

  function info(s: Session): SessionInfo {
    return { id: s.id, created: s.created, lastUsed: s.lastUsed, scenario: s.scenario, overrides: s.overrides, changes: s.changes, files: s.delta.fileCount };
  }

  function drop(s: Session): void {
    sessions.delete(s.id);
    s.offDelta();
    release(s);
  }

  /** Closes the session's pipeline (not the layers it reuses) and its view of the files. */
  function release(s: Session): void {
    const b = s.built;
    if (!b) return;
    s.built = undefined;
    b.off();
    void (async () => {
      for (const layer of b.own) await layer.close?.();
      await b.vfs?.close?.();
    })().catch((err: unknown) => logger.debug(`closing session ${s.id}: ${(err as Error)?.message ?? String(err)}`));
  }

  function sweep(now: number): void {
    lastSweep = now;
    for (const s of sessions.values()) {
      if (now - s.lastUsed >= idleTimeout) {
        logger.debug(`session ${s.id} expired (idle ${Math.round((now - s.lastUsed) / 1000)} s)`);
        drop(s);
      }
    }
  }

  function open(id: string, now: number): Session {
    if (now - lastSweep >= Math.min(idleTimeout, 1000)) sweep(now);
    if (sessions.size >= max) {
      let oldest: Session | undefined;
      for (const s of sessions.values()) if (oldest === undefined || s.lastUsed < oldest.lastUsed) oldest = s;
      if (oldest) {
        logger.info(`session ${oldest.id} dropped: ${max} sessions are kept at most (sessions.max), it was idle longest`);
        drop(oldest);
      }
    }
    const delta = deltaFs();
    const s: Session = { id, created: now, lastUsed: now, scenario: null, overrides: [], delta, changes: 0, version: 0, built: undefined, offDelta: () => {} };
    s.offDelta = delta.onChange(() => {
      s.changes++;
    });
    sessions.set(id, s);
    return s;
  }

  /** The live session `id` (expired ones are dropped here), or undefined. */
  function live(id: string, now = clock()): Session | undefined {
    const s = sessions.get(id);
    if (s === undefined) return undefined;
    if (now - s.lastUsed >= idleTimeout) {
      drop(s);
      return undefined;
    }
    return s;
  }

  /** The live session `id`, else a new one (`id` checked first: a 400 for a malformed one). */
  function touch(id: string): Session {
    const now = clock();
    const s = live(id, now) ?? open(checkSessionId(id), now);
    s.lastUsed = now;
    return s;
  }

  function build(s: Session, scenario: string | null): Pipeline | undefined {
    const recipe = scenarios.recipe(scenario);
    if (recipe === undefined) return undefined;
    const below = recipe.built;
    const { sources } = recipe;
    const baseVfs = sources.vfs;
    let vfs: Vfs | null = null;
    let owns: (path: string) => boolean = () => true;
    if (baseVfs) {
      const overlay = overlayFs(s.delta, baseVfs);
      const remove = overlay.remove;
      // A removal of a file only the mocks hold changes nothing in the delta: count it here.
      overlay.remove = async (path, o) => {
        const before = s.changes;
        const removed = await remove(path, o);
        if (removed && s.changes === before) s.changes++;
        return removed;
      };
      const delta = s.delta;
      owns = (path) => delta.has(path) || overlay.hides(path);
      vfs = overlay;
    }
    const fsDir = sources.fsDir;
    // A state folder (`openapi.state`) is the shared data's: a session's OpenAPI backend keeps its
    // collections in memory, drawn from the same seed (as a session's backend does without a
    // folder), so its writes never reach the shared files nor race their write queue.
    const openapi = sources.options.openapi;
    const sessionOptions: ResolvedMockApiOptions = openapi?.backend.state === undefined ? sources.options : { ...sources.options, openapi: { ...openapi, backend: { ...openapi.backend, state: undefined } } };
    // The session's overrides first, then its saved scenario's (none for a configured one).
    const overrides: OverrideSource = {
      idle: () => s.overrides.length === 0 && (scenario === null || !routeOverrides.saved.has(scenario)),
      lists: () => {
        const saved = scenario === null ? undefined : routeOverrides.saved.get(scenario);
        return saved ? [s.overrides, saved] : [s.overrides];
      },
    };
    const sessionVfs = vfs;
    let sessionStore: BuiltLayers['store'] | undefined;
    const app: MockApiApp = {
      ws: services.app.ws,
      get fs() {
        return sessionVfs ?? services.app.fs;
      },
      get store() {
        return sessionStore ?? services.app.store;
      },
      webhook: services.app.webhook,
    };
    // The engine's services (read through, `closed` included) with the session's app and its own per-file queue.
    const queue = new KeyedQueue();
    const own: EngineServices = Object.create(services, { app: { value: app }, queue: { value: queue } });
    const built: BuiltLayers = buildLayers({
      options: sessionOptions,
      services: own,
      vfs,
      fsDir,
      filesName: sources.filesName,
      below: below && vfs ? { cache: () => below.files.mode()?.env.cache, owns } : undefined,
      reuse: below,
      overrides,
    });
    sessionStore = built.store;
    const reused = new Set<Layer>([below?.openapi, below?.proxy].filter((l): l is Layer => l !== undefined));
    const pipeline = createPipeline({ layers: built.layers, delay: sessionOptions.delay, gatewayTimeout: options.gatewayTimeout, forward, sleep: own.sleep, logger });
    const id = s.id;
    const off = pipeline.observe((x) => {
      for (const o of observers) o(x, scenario, id);
    });
    s.built = { scenario, version: s.version, pipeline, own: built.layers.filter((l) => !reused.has(l)), vfs, off, store: built.store, queue };
    return pipeline;
  }

  function pipelineOf(s: Session, scenario: string | null): Pipeline | undefined {
    const b = s.built;
    if (b !== undefined && b.scenario === scenario && b.version === s.version) return b.pipeline;
    if (b !== undefined) release(s);
    return build(s, scenario);
  }

  /** Session `id`'s pipeline, built for the scenario it asks (its own, else the current one); the session is made when needed. */
  function builtFor(id: string): Built | undefined {
    if (!enabled) throw new HttpError(404, 'Sessions are off (mock.sessions: false)');
    const s = touch(checkSessionId(id));
    pipelineOf(s, scenarios.names.length === 0 ? null : (s.scenario ?? scenarios.current));
    return s.built;
  }

  function addOverrides(s: Session, list: readonly unknown[]): void {
    s.overrides = [...checkOverrides(list), ...s.overrides]; // the newest first: it wins (a new array: sessions/layer.ts)
  }

  return {
    enabled,

    pipelineFor(ctx) {
      if (!enabled) return undefined;
      const id = requestedSession(ctx);
      if (id === undefined) return undefined;
      const s = touch(id);
      if (s.scenario !== null && scenarios.recipe(s.scenario) === undefined) s.scenario = null; // its saved scenario was dropped
      const name = scenarios.names.length === 0 ? null : (requestedScenario(ctx) ?? s.scenario ?? scenarios.current);
      return pipelineOf(s, name) ?? scenarios.unknown(name!, ctx);
    },

    observe(fn) {
      observers.push(fn);
      return () => {
        const i = observers.indexOf(fn);
        if (i !== -1) observers.splice(i, 1);
      };
    },

    create(id, init) {
      if (!enabled) throw new HttpError(404, 'Sessions are off (mock.sessions: false)');
      const s = touch(checkSessionId(id ?? newId()));
      if (init?.scenario !== undefined) {
        scenarios.check(init.scenario);
        s.scenario = init.scenario;
      }
      if (init?.overrides !== undefined) addOverrides(s, init.overrides);
      return info(s);
    },

    get(id) {
      const s = live(id);
      return s ? info(s) : undefined;
    },

    list() {
      sweep(clock());
      return [...sessions.values()].sort((a, b) => b.lastUsed - a.lastUsed).map(info);
    },

    reset(id) {
      const s = live(id);
      if (!s) return undefined;
      release(s);
      s.delta.clear();
      s.changes = 0;
      s.overrides = [];
      s.scenario = null;
      s.version++;
      s.lastUsed = clock();
      return info(s);
    },

    remove(id) {
      const s = live(id);
      if (!s) return false;
      drop(s);
      return true;
    },

    useScenario(id, name) {
      scenarios.check(name);
      const s = touch(checkSessionId(id));
      s.scenario = name;
      return info(s);
    },

    addOverrides(id, list) {
      const s = touch(checkSessionId(id));
      addOverrides(s, list);
      return info(s);
    },

    clearOverrides(id) {
      const s = live(id);
      if (!s) return undefined;
      s.overrides = [];
      return info(s);
    },

    async write(id, files) {
      const s = touch(checkSessionId(id));
      const fsDir = scenarios.recipe(s.scenario)?.sources.fsDir ?? '';
      for (const [path, bytes] of seedEntries(files)) await s.delta.write(joinVfsPath(fsDir, path), bytes);
      return info(s);
    },

    removeOverride(id, index) {
      const s = live(id);
      if (!s || !Number.isInteger(index) || index < 0 || index >= s.overrides.length) return undefined;
      s.overrides = s.overrides.filter((_, i) => i !== index);
      return info(s);
    },

    store(id) {
      const store = builtFor(id)?.store;
      if (store === undefined) throw new HttpError(404, 'No collections: file routing is off');
      return store;
    },

    files(id) {
      const built = builtFor(id);
      if (!built?.vfs) throw new HttpError(404, 'No mocks folder: file routing is off');
      return { vfs: built.vfs, fsDir: scenarios.recipe(built.scenario)?.sources.fsDir ?? '', queue: built.queue };
    },

    async close() {
      for (const s of [...sessions.values()]) drop(s);
    },
  };
}
