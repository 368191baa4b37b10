/**
 * What `.storybook/preview` uses: `initialize()` starts the page worker once for the preview
 * page (each Storybook tab is one preview page, with its own engines), `mockyardLoader` applies
 * each story's `parameters.mockyard` before it renders (story-session.ts) and gives the story
 * `context.mockyard`, and the toolbar item (`mockyardGlobalTypes` + `mockyardDecorator`) opens the
 * devtools overlay (src/sw/devtools-overlay.ts) over the story: the journal of the story shown.
 * The module's state is the page's worker: one per preview page, as Storybook loads preview.ts once.
 */
import { check, OptionsError } from '../core/options.js';
import type { Engine } from '../core/engine.js';
import type { MockApiOptions } from '../engine/mock-api-options.js';
import { collectorBase } from '../devtools/paths.js';
import { memoryFs } from '../vfs/memory.js';
import type { SeedTree } from '../vfs/seed.js';
import { startPageWorker, type PageWorker, type StartWorkerOptions } from '../sw/start-worker.js';
import { StoryRunner, type StoryMockyard } from './story-session.js';

export interface InitializeOptions extends StartWorkerOptions {
  /**
   * The app's mocks folder as the builder bundles it, used as the mock API's files (`memoryFs`)
   * when `mock.fs` is not given: `import.meta.glob('../mocks/**', { eager: true, query: '?raw',
   * import: 'default' })`. Keys are paths; the folder they all share is the root (so
   * `../mocks/items.json` is `items.json`). Values: the file's text (or bytes, or a module whose
   * `default` is either).
   */
  files?: Record<string, unknown>;
}

interface Page {
  readonly worker: PageWorker;
  readonly runner: StoryRunner;
}

let page: Promise<Page> | undefined;

/**
 * Starts the page worker (mock API + collector) once for this preview page and resolves to it;
 * later calls resolve to the same worker. Options: `startWorker`'s (docs/browser.md), plus
 * `files`; the collector is on unless `tracker: false`, MSW's console output off unless
 * `quiet: false`.
 */
export function initialize(options: InitializeOptions = {}): Promise<PageWorker> {
  page ??= start(options);
  return page.then((p) => p.worker);
}

async function start(options: InitializeOptions): Promise<Page> {
  check.object(options, 'initialize');
  const { files, ...rest } = options;
  let mock = rest.mock;
  if (files !== undefined) {
    const tree = seedFromFiles(check.object(files, 'files')!);
    if (mock !== undefined && mock !== null && typeof (mock as Engine).handle === 'function') {
      throw new OptionsError('files', 'cannot be given with a ready mock engine (give the engine its own fs)');
    }
    const given = (mock ?? {}) as MockApiOptions;
    if (given.fs !== undefined) throw new OptionsError('files', 'cannot be given with mock.fs (the files are the mock API\'s fs: leave one out)');
    mock = { ...given, fs: memoryFs(tree) };
  }
  const { worker, controls } = await startPageWorker({ ...rest, mock, tracker: rest.tracker ?? true, quiet: rest.quiet ?? true });
  const host = controls.host;
  const base = collectorBase(host.tracker);
  const readEvents = host.tracker
    ? async (since: number) => {
        const q = new URLSearchParams({ since: new Date(since - 1).toISOString(), until: new Date(Date.now() + 86_400_000).toISOString() });
        const res = await host.fetch(new Request(new URL(`${base}?${q}`, location.href)));
        if (!res.ok) throw new Error(`mockyard/storybook: reading the collector answered ${res.status}: ${await res.text()}`);
        const { events } = (await res.json()) as { events: Array<Record<string, unknown>> };
        return events.sort((a, b) => String(a.timestamp ?? '').localeCompare(String(b.timestamp ?? '')));
      }
    : undefined;
  const runner = new StoryRunner({ api: worker.mock, controls, journal: host.journal, ...(readEvents ? { readEvents } : {}) });
  return { worker, runner };
}

/** `import.meta.glob`'s record → a seed tree rooted at the folder every key shares. */
export function seedFromFiles(files: Record<string, unknown>): SeedTree {
  const keys = Object.keys(files);
  const dirs = keys.map((k) => k.split('/').slice(0, -1));
  let shared = dirs[0]?.length ?? 0;
  for (const d of dirs) {
    let i = 0;
    while (i < shared && i < d.length && d[i] === dirs[0]![i]) i++;
    shared = i;
  }
  const tree: SeedTree = {};
  for (const key of keys) {
    let value = files[key];
    if (typeof value === 'object' && value !== null && !(value instanceof Uint8Array) && 'default' in value) value = (value as { default: unknown }).default;
    if (typeof value !== 'string' && !(value instanceof Uint8Array)) {
      throw new OptionsError(`files[${JSON.stringify(key)}]`, "must be the file's text or bytes (import.meta.glob(…, { eager: true, query: '?raw', import: 'default' }))");
    }
    tree[key.split('/').slice(shared).join('/')] = value;
  }
  return tree;
}

/** The part of Storybook's story context this module reads (any renderer's). */
export interface StoryContextLike {
  id: string;
  parameters?: Record<string, unknown>;
  viewMode?: string;
  globals?: Record<string, unknown>;
  args?: Record<string, unknown>;
}

/**
 * The loader (`loaders: [mockyardLoader]` in preview): waits for the worker, applies the story's
 * `parameters.mockyard` (and msw-storybook-addon's `parameters.msw`), and gives the story
 * `context.mockyard` (also `context.loaded.mockyard`).
 */
export async function mockyardLoader(context: StoryContextLike): Promise<{ mockyard: StoryMockyard }> {
  if (page === undefined) throw new Error('mockyard/storybook: call initialize({ mock: … }) in .storybook/preview before its loader runs');
  const { runner } = await page;
  const mockyard = await runner.begin({
    id: context.id,
    parameters: context.parameters?.mockyard,
    msw: context.parameters?.msw,
    ...(context.viewMode !== undefined ? { viewMode: context.viewMode } : {}),
    renderKey: renderKey(context),
  });
  (context as StoryContextLike & { mockyard?: StoryMockyard }).mockyard = mockyard;
  return { mockyard };
}

/** A story's args and globals as text (functions, e.g. actions, left out). */
function renderKey(context: StoryContextLike): string {
  try {
    return JSON.stringify([context.args ?? null, context.globals ?? null]);
  } catch {
    return '?'; // args that are not JSON (a cycle): every load of the story starts afresh
  }
}

/** The toolbar item (`globalTypes` in preview): the devtools overlay open or closed. */
export const mockyardGlobalTypes = {
  mockyard: {
    description: 'mockyard devtools: the requests of this story',
    toolbar: {
      title: 'mockyard',
      icon: 'database',
      items: [
        { value: 'closed', title: 'Devtools closed' },
        { value: 'open', title: 'Devtools open' },
      ],
      dynamicTitle: true,
    },
  },
} as const;

export const mockyardInitialGlobals = { mockyard: 'closed' } as const;

let overlay: Promise<{ close(): void }> | undefined;

/**
 * The decorator that follows the toolbar item (`decorators: [mockyardDecorator]`): opens the
 * devtools overlay over the story when it says open, closes it when it says closed. Any
 * renderer: it only calls the story function.
 */
export function mockyardDecorator<T>(storyFn: () => T, context: StoryContextLike): T {
  const open = context.globals?.mockyard === 'open';
  if (open && page !== undefined) {
    // The worker gives back the overlay already open (closed by Escape: a new one).
    const opening = page.then(({ worker }) => worker.openDevtools());
    overlay = opening;
    opening.catch((err: unknown) => console.error(err));
  } else if (!open && overlay !== undefined) {
    const closing = overlay;
    overlay = undefined;
    closing.then((o) => o.close(), () => undefined);
  }
  return storyFn();
}
