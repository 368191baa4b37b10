/**
 * Routes: what `GET routes` describes — the files tree under each prefix (sizes), collections
 * with their item counts, handlers, WebSocket handlers with their live connections, the
 * collector's routes. A file or a parameter-free GET handler
 * can be tried: the page sends the GET and shows status and body (as text).
 */
import { useEffect, useState } from 'preact/hooks';
import type { FileNode } from '../routes-info.js';
import { ADMIN, getJson, type Transport } from './api.js';
import { bytes, header, prettyBody } from './pretty.js';
import { FileEditor, NewRoute, RouteOverrides } from './route-editor.js';
import type { StorageStatus } from '../../tracker/storage-state.js';

export interface RoutesInfo {
  mock: {
    prefixes: string[];
    layers?: string[];
    files: { tree: FileNode[]; truncated: boolean } | null;
    handlers: Array<{ method: string; pattern: string; disabled: boolean }>;
    collections: Array<{ url: string; file: string; count: number }>;
    wsHandlers: Array<{ pattern: string; connections: number }>;
    scenarios: string[];
    scenario: string | null;
    graphql?: string | null;
  } | null;
  collector: { basePath: string; routes: Array<{ path: string; methods: string[]; what: string }>; storage?: StorageStatus | null } | null;
}

/** The URL a file answers: `users.json` → `<prefix>/users`, `a/index.json` → `<prefix>/a/`. */
export function fileUrl(prefix: string, path: string): string {
  const base = prefix === '/' ? '' : prefix.replace(/\/$/, '');
  const url = path.replace(/(^|\/)index\.json$/, '$1').replace(/\.json$/, '');
  return `${base}/${url.split('/').map(encodeURIComponent).join('/')}`;
}

interface Tried {
  url: string;
  status: number;
  type: string;
  text: string;
}

function Tree({ nodes, at, prefix, onTry, onEdit }: { nodes: FileNode[]; at: string; prefix: string; onTry: (url: string) => void; onEdit: (file: string) => void }) {
  return (
    <ul class="tree">
      {nodes.map((n) => {
        const path = at ? `${at}/${n.name}` : n.name;
        if (n.kind === 'dir') {
          return (
            <li>
              <details open>
                <summary class="mono">{n.name}/</summary>
                <Tree nodes={n.children ?? []} at={path} prefix={prefix} onTry={onTry} onEdit={onEdit} />
              </details>
            </li>
          );
        }
        const url = fileUrl(prefix, path);
        return (
          <li class="file">
            <button type="button" class="link mono" title={`GET ${url}`} onClick={() => onTry(url)}>
              {n.name}
            </button>
            <span class="dim"> {bytes(n.size)}</span>{' '}
            <button type="button" class="link edit" aria-label={`Edit ${path}`} onClick={() => onEdit(path)}>
              edit
            </button>
          </li>
        );
      })}
    </ul>
  );
}

export function RoutesTab({ transport, active }: { transport: Transport; active: boolean }) {
  const [info, setInfo] = useState<RoutesInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tried, setTried] = useState<Tried | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const load = () =>
    getJson<RoutesInfo>(transport, `${ADMIN}/routes`).then(
      (r) => (setInfo(r), setError(null)),
      (e: Error) => setError(e.message),
    );
  useEffect(() => {
    if (active) void load();
  }, [active, transport]);
  const tryGet = async (url: string) => {
    try {
      const res = await transport(url, { headers: { Accept: 'application/json' } });
      const type = res.headers.get('content-type') ?? '';
      const text = /json|text|xml|javascript/.test(type) || type === '' ? await res.text() : `(${type}, ${bytes((await res.arrayBuffer()).byteLength)})`;
      setTried({ url, status: res.status, type, text });
      setEditing(null);
    } catch (e) {
      setTried({ url, status: 0, type: '', text: String(e) });
    }
  };
  const mock = info?.mock;
  return (
    <section class="tab routes" hidden={!active} role="tabpanel" id="panel-routes" aria-labelledby="tab-routes">
      <div class="toolbar">
        <button type="button" onClick={load}>
          Reload
        </button>
      </div>
      {error && <p class="error">{error}</p>}
      <div class="split">
        <div class="pane">
          {mock ? (
            <>
              <h2>Files {mock.prefixes.map((p) => <code>{p}</code>)}</h2>
              {mock.files ? (
                <>
                  <Tree nodes={mock.files.tree} at="" prefix={mock.prefixes[0] ?? '/'} onTry={tryGet} onEdit={setEditing} />
                  {mock.files.truncated && <p class="dim">Only the first 5,000 entries are listed.</p>}
                </>
              ) : (
                <p class="dim">No file folder (handlers only).</p>
              )}
              {mock.collections.length > 0 && (
                <>
                  <h2>Collections</h2>
                  <ul class="plain">
                    {mock.collections.map((c) => (
                      <li>
                        <button type="button" class="link mono" onClick={() => tryGet(c.url)}>
                          {c.url}
                        </button>
                        <span class="dim" data-testid="collection-count">
                          {' '}
                          {c.count.toLocaleString('en')} items
                        </span>
                      </li>
                    ))}
                  </ul>
                </>
              )}
              <h2>Handlers</h2>
              {mock.handlers.length === 0 ? (
                <p class="dim">None.</p>
              ) : (
                <ul class="plain">
                  {mock.handlers.map((h) => {
                    const url = `${mock.prefixes[0] === '/' ? '' : mock.prefixes[0] ?? ''}${h.pattern.startsWith('/') ? h.pattern : `/${h.pattern}`}`;
                    const tryable = h.method === 'GET' && !/[:*(]/.test(h.pattern) && !h.disabled;
                    return (
                      <li class="mono">
                        <span class="method">{h.method}</span>{' '}
                        {tryable ? (
                          <button type="button" class="link mono" onClick={() => tryGet(url)}>
                            {h.pattern}
                          </button>
                        ) : (
                          <span>{h.pattern}</span>
                        )}
                        {h.disabled && <span class="dim"> (disabled)</span>}
                      </li>
                    );
                  })}
                </ul>
              )}
              {mock.wsHandlers.length > 0 && (
                <>
                  <h2>WebSocket</h2>
                  <ul class="plain">
                    {mock.wsHandlers.map((w) => (
                      <li>
                        <span class="mono">{w.pattern}</span>
                        <span class="dim" data-testid="ws-connections">
                          {' '}
                          {w.connections} connected
                        </span>
                      </li>
                    ))}
                  </ul>
                </>
              )}
            </>
          ) : (
            info && <p class="dim">No mock API on this host.</p>
          )}
          {mock && mock.files && <NewRoute transport={transport} prefix={mock.prefixes[0] ?? '/'} onCreated={load} />}
          {mock && <RouteOverrides transport={transport} paths={routePaths(mock)} />}
          {info?.collector && (
            <>
              <h2>Event collector</h2>
              {info.collector.storage && <StorageLine status={info.collector.storage} />}
              <ul class="plain">
                {info.collector.routes.map((r) => (
                  <li>
                    <span class="mono">{r.methods.join(' ')}</span> <code>{r.path}</code> <span class="dim">{r.what}</span>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
        <div class="pane tried" aria-label="Response">
          {editing !== null ? (
            <FileEditor transport={transport} file={editing} onClose={() => setEditing(null)} />
          ) : tried ? (
            <>
              <h2 class="mono">
                GET {tried.url} → <span class={`st-${Math.floor(tried.status / 100)}xx`}>{tried.status}</span>
              </h2>
              <p class="dim mono">{tried.type}</p>
              <pre class="body">{prettyBody(tried.text, header({ 'content-type': tried.type }, 'content-type'))}</pre>
            </>
          ) : (
            <p class="dim">Click a file or a GET handler to try it.</p>
          )}
        </div>
      </div>
    </section>
  );
}

/** The route patterns (below the prefix) the override form offers: collections, their items, handlers, recorded answers (`flags@recorded.json` → `/flags`). */
function routePaths(mock: NonNullable<RoutesInfo['mock']>): string[] {
  const prefix = mock.prefixes[0] ?? '/';
  const below = (url: string) => (prefix !== '/' && url.startsWith(prefix) ? url.slice(prefix.replace(/\/$/, '').length) : url);
  const out = new Set<string>();
  for (const c of mock.collections) {
    out.add(below(c.url));
    out.add(`${below(c.url)}/:id`);
  }
  for (const h of mock.handlers) out.add(h.pattern.startsWith('/') ? h.pattern : `/${h.pattern}`);
  const recorded = (nodes: FileNode[], at: string) => {
    for (const n of nodes) {
      const path = at ? `${at}/${n.name}` : n.name;
      if (n.kind === 'dir') recorded(n.children ?? [], path);
      else if (n.name.endsWith('@recorded.json')) out.add(`/${path.slice(0, -'@recorded.json'.length)}`);
    }
  };
  recorded(mock.files?.tree ?? [], '');
  return [...out];
}

/** The collector's storage: ready, or why not, and what the spool holds. */
function StorageLine({ status }: { status: StorageStatus }) {
  const spool = status.spool;
  return (
    <p class={status.state === 'ready' ? 'dim' : 'error'} data-testid="collector-storage">
      Storage: {status.state === 'ready' ? 'ready' : status.state === 'connecting' ? 'connecting…' : `unavailable — ${status.reason ?? 'not connected'}; retrying`}
      {spool && (spool.batches > 0 || status.state !== 'ready') && ` · spool: ${spool.batches} batches (${Math.round(spool.bytes / 1024)} KiB of ${Math.round(spool.maxBytes / 1048576)} MiB)${spool.draining ? ', draining' : ''}`}
    </p>
  );
}
