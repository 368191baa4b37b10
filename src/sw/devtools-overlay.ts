/**
 * The devtools page in the page host (`mockyard/browser`). MSW's service worker never intercepts a
 * navigation (its script returns early for `mode: 'navigate'`), and each tab runs its own engines,
 * so a separate tab at `/_mockyard/` could not reach this tab's journal. Instead the same prebuilt
 * page (src/devtools/page-assets.generated.ts, imported here on demand: not in the start-up
 * bundle) is mounted over the app in this tab, in a shadow root (its styles and the app's never
 * mix), and talks to this tab's engines in-process — the very answers the worker would give, so
 * the Requests tab shows the app's requests live and a scenario switch applies to the app.
 * Opened by `worker.openDevtools()` or by the URL hash `#_mockyard` (at start and on hashchange).
 */
import { answerFrom } from '../host/dispatch.js';
import type { Engine } from '../core/engine.js';
import { collectorBase } from '../devtools/paths.js';
import { toPageResponse } from '../host/page-response.js';

export interface DevtoolsOverlay {
  close(): void;
}

interface PageModule {
  mount(root: Element, options: { transport: (path: string, init?: RequestInit) => Promise<Response>; onClose?: () => void; collectorBase?: string }): () => void;
}

/** The page's module, evaluated once per tab (a Blob URL of the prebuilt bundle). */
let pageModule: Promise<PageModule> | undefined;
function loadPage(): Promise<PageModule> {
  return (pageModule ??= import('../devtools/page-assets.generated.js').then(async ({ pageScript }) => {
    const url = URL.createObjectURL(new Blob([pageScript], { type: 'text/javascript' }));
    try {
      return (await import(/* @vite-ignore */ url)) as PageModule;
    } finally {
      URL.revokeObjectURL(url);
    }
  }).catch((err: unknown) => {
    pageModule = undefined;
    throw err;
  }));
}

export async function openDevtoolsOverlay(engines: readonly Engine[], tracker: Engine | undefined, onClosed: () => void): Promise<DevtoolsOverlay> {
  const [page, { pageStyle }] = await Promise.all([loadPage(), import('../devtools/page-assets.generated.js')]);
  const host = document.createElement('div');
  host.setAttribute('data-mockyard-devtools', 'overlay');
  host.style.cssText = 'position:fixed;inset:0;z-index:2147483647;';
  const shadow = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = pageStyle;
  const root = document.createElement('div');
  root.style.cssText = 'position:absolute;inset:0;';
  shadow.append(style, root);
  document.body.append(host);
  const transport = async (path: string, init?: RequestInit): Promise<Response> => {
    const request = new Request(new URL(path, location.href), init);
    const answer = await answerFrom(engines, request, new URL(request.url).pathname);
    return answer === undefined ? fetch(request) : toPageResponse(answer);
  };
  let closed = false;
  // Escape closes the overlay; closing it takes `#_mockyard` (which opens it) off the URL.
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Escape') close();
  };
  const close = () => {
    if (closed) return;
    closed = true;
    removeEventListener('keydown', onKey, true);
    unmount();
    host.remove();
    if (location.hash === '#_mockyard') history.replaceState(history.state, '', `${location.pathname}${location.search}`);
    onClosed();
  };
  addEventListener('keydown', onKey, true);
  const unmount = page.mount(root, { transport, onClose: close, collectorBase: collectorBase(tracker) });
  return { close };
}
