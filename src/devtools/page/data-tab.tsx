/**
 * Data: the collections as tables, edited through the admin API's data routes (admin-data.ts:
 * the collection store, so REST, GraphQL and change events see every edit). The scope is the
 * shared data or one session's copy, always labelled. One page of a collection travels at a time
 * (sorted, filtered and cut on the server: a 100k-item collection stays responsive).
 *
 * Keyboard: Tab reaches every control and cell; Enter on a cell edits it, Enter saves, Escape
 * cancels, and focus returns to the cell. The JSON dialog (add, edit the whole item, import)
 * saves with Ctrl+Enter and closes with Escape. A write made from a stale view is refused by the
 * server (412): the message says so, the table reloads, and the draft stays in the dialog.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ADMIN, download, getJson, readJson, type Transport } from './api.js';
import { ObjectForm } from './object-form.js';

type Item = Record<string, unknown>;
interface Page {
  items: Item[];
  etags: string[];
  total: number;
  offset: number;
  limit: number;
  idField: string;
}
interface Collections {
  scope: { session: string | null };
  /**
   * `backend: 'openapi'`: a resource of the OpenAPI backend's state (`/pet`), written through the document's operations;
   * `backend: 'graphql'`: an entity type of a schema-first GraphQL API (`graphql:Post`), written as its mutations write.
   */
  collections: Array<{ name: string; count: number; backend?: 'openapi' | 'graphql' }>;
  /** Top-level JSON files holding one object (in the scope's view): edited as a form. */
  objects?: string[];
  /** With `mock.db`: the JSON file whose keys they all are (`db.json`). */
  db?: string;
}
/** The select's value for an object: `object:<name>`. */
const OBJECT = 'object:';
interface SessionList {
  sessions: Array<{ id: string }>;
}

const PAGE = 50;

/** A cell's text: strings as they are, everything else as JSON. */
function cellText(v: unknown): string {
  if (v === undefined) return '';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** What a typed cell means: the old value's type is kept (a string stays a string); else JSON when it parses. */
function parseCell(text: string, old: unknown): unknown {
  if (typeof old === 'string') return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function sessionQuery(session: string | null, first = true): string {
  return session === null ? '' : `${first ? '?' : '&'}session=${encodeURIComponent(session)}`;
}

interface Dialog {
  title: string;
  text: string;
  /** Saves the parsed JSON; throws to keep the dialog open with the message. */
  save(value: unknown): Promise<void>;
}

export function DataTab({ transport, active }: { transport: Transport; active: boolean }) {
  const [session, setSession] = useState<string | null>(null);
  const [sessions, setSessions] = useState<string[]>([]);
  const [collections, setCollections] = useState<Collections['collections']>([]);
  const [objects, setObjects] = useState<string[]>([]);
  const [db, setDb] = useState<string | undefined>(undefined);
  const [name, setName] = useState<string | null>(null);
  const [page, setPage] = useState<Page | null>(null);
  const [offset, setOffset] = useState(0);
  const [sort, setSort] = useState<{ field: string; order: 'asc' | 'desc' } | null>(null);
  const [q, setQ] = useState('');
  const [note, setNote] = useState<{ text: string; error: boolean } | null>(null);
  const [editing, setEditing] = useState<{ row: number; field: string; text: string } | null>(null);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const [newSession, setNewSession] = useState('');
  const focusAfter = useRef<string | null>(null);
  const tableRef = useRef<HTMLTableElement>(null);
  const dialogText = useRef<HTMLTextAreaElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  /** The number of the latest page asked for (typing in the filter asks several in a row). */
  const pageAsked = useRef(0);

  const enc = (n: string) => encodeURIComponent(n);
  const base = (n: string) => `${ADMIN}/data/${enc(n)}`;
  const report = (text: string, error = false) => setNote({ text, error });

  const loadCollections = async () => {
    try {
      const c = await getJson<Collections>(transport, `${ADMIN}/data${sessionQuery(session)}`);
      setCollections(c.collections);
      setObjects(c.objects ?? []);
      setDb(c.db);
      if (name?.startsWith(OBJECT) && !(c.objects ?? []).includes(name.slice(OBJECT.length))) setName(null);
      if (name?.startsWith(OBJECT)) return;
      if (c.collections.length && (name === null || !c.collections.some((x) => x.name === name))) setName(c.collections[0]!.name);
    } catch (e) {
      report((e as Error).message, true);
    }
    try {
      const s = await getJson<SessionList>(transport, `${ADMIN}/sessions`);
      setSessions(s.sessions.map((x) => x.id));
    } catch {
      setSessions([]);
    }
  };

  const loadPage = async () => {
    if (name === null || name.startsWith(OBJECT)) return setPage(null);
    const params = new URLSearchParams({ offset: String(offset), limit: String(PAGE) });
    if (sort) (params.set('sort', sort.field), params.set('order', sort.order));
    if (q) params.set('q', q);
    if (session !== null) params.set('session', session);
    const asked = ++pageAsked.current;
    try {
      const next = await getJson<Page>(transport, `${base(name)}?${params}`);
      if (asked === pageAsked.current) setPage(next); // an older answer arriving late never replaces a newer one
    } catch (e) {
      report((e as Error).message, true);
    }
  };

  useEffect(() => {
    if (active) void loadCollections();
  }, [active, transport, session]);
  useEffect(() => {
    if (active) void loadPage();
  }, [active, name, offset, sort, q, session]);
  // Focus back where the user was after a save (a cell, a row button).
  useEffect(() => {
    const key = focusAfter.current;
    if (key === null || !tableRef.current) return;
    const el = tableRef.current.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(key)}"]`);
    if (el) {
      el.focus();
      focusAfter.current = null;
    }
  }, [page, editing]);
  useEffect(() => {
    if (dialog) dialogText.current?.focus();
  }, [dialog]);

  /** One write; a 412 (changed elsewhere) is reported and the table reloaded. */
  const write = async (path: string, init: RequestInit, done: string): Promise<boolean> => {
    const res = await transport(path, init);
    if (res.status === 412) {
      const body = (await res.json().catch(() => ({}))) as { message?: string };
      report(`Not saved: ${body.message ?? 'changed elsewhere'}. The table is reloaded; apply your change again.`, true);
      await loadPage();
      return false;
    }
    await readJson(res);
    report(done);
    await loadPage();
    void loadCollections();
    return true;
  };
  const jsonInit = (method: string, value: unknown, etag?: string): RequestInit => ({
    method,
    headers: { 'Content-Type': 'application/json', ...(etag ? { 'If-Match': etag } : {}) },
    body: JSON.stringify(value),
  });

  const idOf = (item: Item) => String(item[page?.idField ?? 'id']);
  const itemPath = (item: Item, extra = '') => `${base(name!)}/${enc(idOf(item))}${extra}${sessionQuery(session)}`;

  const saveCell = async () => {
    if (!editing || !page) return;
    const item = page.items[editing.row]!;
    const value = parseCell(editing.text, item[editing.field]);
    focusAfter.current = `${editing.row}:${editing.field}`;
    setEditing(null);
    try {
      await write(itemPath(item), jsonInit('PATCH', { [editing.field]: value }, page.etags[editing.row]), `Saved ${editing.field} of ${idOf(item)}.`);
    } catch (e) {
      report((e as Error).message, true);
    }
  };

  const openDialog = (d: Dialog) => {
    opener.current = document.activeElement as HTMLElement | null;
    setDialogError(null);
    setDialog(d);
  };
  const closeDialog = () => {
    setDialog(null);
    setDialogError(null);
    opener.current?.focus();
  };
  const submitDialog = async () => {
    if (!dialog) return;
    const text = dialogText.current?.value ?? dialog.text;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      setDialogError(`Not JSON: ${(e as Error).message}`);
      return;
    }
    try {
      await dialog.save(value);
      closeDialog();
    } catch (e) {
      setDialog({ ...dialog, text });
      setDialogError((e as Error).message);
    }
  };
  /** A dialog's save: a write that keeps the dialog open (and the draft) when it fails. */
  const dialogWrite = async (path: string, init: RequestInit, done: string) => {
    const res = await transport(path, init);
    if (res.status === 412) {
      const body = (await res.json().catch(() => ({}))) as { message?: string };
      await loadPage();
      throw new Error(`Not saved: ${body.message ?? 'changed elsewhere'}. Your draft is kept; the table shows the current version.`);
    }
    await readJson(res);
    report(done);
    await loadPage();
    void loadCollections();
  };

  const addItem = () =>
    openDialog({
      title: `New item in ${name}`,
      text: '{\n  \n}',
      save: (v) => dialogWrite(`${base(name!)}${sessionQuery(session)}`, jsonInit('POST', v), 'Item added.'),
    });
  const editItem = (row: number) => {
    const item = page!.items[row]!;
    const etag = page!.etags[row];
    openDialog({
      title: `${name} ${idOf(item)}`,
      text: JSON.stringify(item, null, 2),
      save: (v) => dialogWrite(itemPath(item), jsonInit('PUT', v, etag), `Saved ${idOf(item)}.`),
    });
  };
  const importJson = () =>
    openDialog({
      title: `Import into ${name} (replaces every item)`,
      text: '[\n  \n]',
      save: (v) => dialogWrite(`${base(name!)}${sessionQuery(session)}`, jsonInit('PUT', v), 'Imported.'),
    });
  const exportJson = async () => {
    try {
      await download(transport(`${base(name!)}?export=true${sessionQuery(session, false)}`), `${name!.replace(/[^A-Za-z0-9._-]+/g, '-')}.json`);
      report(`Exported ${name}.`);
    } catch (e) {
      report((e as Error).message, true);
    }
  };
  const act = async (fn: () => Promise<unknown>) => {
    try {
      await fn();
    } catch (e) {
      report((e as Error).message, true);
    }
  };
  const resetCollection = () => act(() => write(`${base(name!)}/reset${sessionQuery(session)}`, { method: 'POST' }, `${name} reset to its seed.`));
  const resetSession = () =>
    act(async () => {
      await readJson(await transport(`${ADMIN}/sessions/${enc(session!)}/reset`, { method: 'POST' }));
      report(`Session ${session} reset.`);
      await loadPage();
      await loadCollections();
    });
  const resetEverything = () =>
    act(async () => {
      await readJson(await transport(`${ADMIN}/reset`, { method: 'POST' }));
      report('Everything reset to the seed.');
      await loadPage();
      await loadCollections();
    });

  const columns = page ? [...new Set([page.idField, ...page.items.flatMap((i) => Object.keys(i))])] : [];
  const toggleSort = (field: string) => {
    setOffset(0);
    setSort((s) => (s?.field === field ? { field, order: s.order === 'asc' ? 'desc' : 'asc' } : { field, order: 'asc' }));
  };
  const backend = collections.find((c) => c.name === name)?.backend;
  const openapi = backend === 'openapi';
  const scopeLabel = openapi
    ? `OpenAPI backend, ${session === null ? 'shared' : `session ${session}’s copy`} (in memory) — edits go through the document’s operations and are validated by it`
    : backend === 'graphql'
      ? `GraphQL schema, ${session === null ? 'shared' : `session ${session}’s own`} state (in memory) — edits change what queries answer, checked against the SDL’s field types`
      : session === null
      ? 'Shared data — what every request without a session sees'
      : `Session ${session} — only requests with X-Mockyard-Session: ${session} see it`;

  return (
    <section class="tab data" hidden={!active} role="tabpanel" id="panel-data" aria-labelledby="tab-data">
      <div class="toolbar">
        <label>
          Data of{' '}
          <select data-testid="data-scope" value={session ?? ''} onChange={(e) => (setOffset(0), setSession((e.target as HTMLSelectElement).value || null))}>
            <option value="">shared data</option>
            {[...new Set([...sessions, ...(session ? [session] : [])])].map((s) => (
              <option value={s}>session {s}</option>
            ))}
          </select>
        </label>
        <form
          class="inline"
          onSubmit={(e) => {
            e.preventDefault();
            if (newSession.trim()) (setSession(newSession.trim()), setNewSession(''), setOffset(0));
          }}
        >
          <input aria-label="New session id" placeholder="session id" value={newSession} onInput={(e) => setNewSession((e.target as HTMLInputElement).value)} size={12} />
          <button type="submit">Open session</button>
        </form>
        <label>
          Collection{' '}
          <select data-testid="data-collection" value={name ?? ''} onChange={(e) => (setOffset(0), setSort(null), setName((e.target as HTMLSelectElement).value))}>
            {collections.map((c) => (
              <option value={c.name}>
                {c.backend === 'graphql' ? c.name.slice('graphql:'.length) : c.name} ({c.count.toLocaleString('en')}){c.backend === 'graphql' ? ' · GraphQL schema' : c.backend ? ' · OpenAPI backend' : ''}
              </option>
            ))}
            {objects.map((o) => (
              <option value={`${OBJECT}${o}`}>{o} (object)</option>
            ))}
          </select>
        </label>
        <input type="search" aria-label="Filter items" placeholder="filter (any field contains)" value={q} onInput={(e) => (setOffset(0), setQ((e.target as HTMLInputElement).value))} />
      </div>
      <p class={`scope ${session === null ? 'shared' : 'session'}`} data-testid="data-scope-label">
        {scopeLabel}
      </p>
      <div class="toolbar">
        <button type="button" onClick={addItem} disabled={name === null || name.startsWith(OBJECT)}>
          Add item
        </button>
        <button type="button" onClick={importJson} disabled={name === null || name.startsWith(OBJECT)}>
          Import JSON
        </button>
        <button type="button" onClick={exportJson} disabled={name === null || name.startsWith(OBJECT)}>
          Export JSON
        </button>
        <button type="button" onClick={resetCollection} disabled={name === null || name.startsWith(OBJECT)}>
          Reset collection
        </button>
        {session !== null ? (
          <button type="button" onClick={resetSession}>
            Reset session
          </button>
        ) : (
          <button type="button" onClick={resetEverything}>
            Reset everything
          </button>
        )}
      </div>
      <p class={`note ${note?.error ? 'error' : 'dim'}`} role={note?.error ? 'alert' : 'status'} data-testid="data-note">
        {note?.text ?? '\u00a0'}
      </p>
      <div class="table-wrap">
        {name?.startsWith(OBJECT) && <ObjectForm transport={transport} name={name.slice(OBJECT.length)} session={session} db={db} />}
        {page && (
          <table ref={tableRef} class="items" data-testid="data-table">
            <thead>
              <tr>
                {columns.map((c) => (
                  <th aria-sort={sort?.field === c ? (sort.order === 'asc' ? 'ascending' : 'descending') : 'none'}>
                    <button type="button" class="link" onClick={() => toggleSort(c)}>
                      {c}
                      {sort?.field === c ? (sort.order === 'asc' ? ' ▲' : ' ▼') : ''}
                    </button>
                  </th>
                ))}
                <th>
                  <span class="sr">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((item, row) => (
                <tr data-id={idOf(item)}>
                  {columns.map((field) => {
                    const isEditing = editing?.row === row && editing.field === field;
                    const readOnly = field === page.idField;
                    return (
                      <td class="mono">
                        {isEditing ? (
                          <input
                            class="cell-input"
                            aria-label={`${field} of ${idOf(item)}`}
                            value={editing.text}
                            ref={(el) => el?.focus()}
                            onInput={(e) => setEditing({ ...editing, text: (e.target as HTMLInputElement).value })}
                            onKeyDown={(e) => {
                              if (e.key === 'Enter') (e.preventDefault(), void saveCell());
                              if (e.key === 'Escape') (e.preventDefault(), (focusAfter.current = `${row}:${field}`), setEditing(null));
                            }}
                            onBlur={() => setEditing((cur) => (cur && cur.row === row && cur.field === field ? null : cur))}
                          />
                        ) : (
                          <span
                            class={readOnly ? 'cell' : 'cell editable'}
                            tabIndex={readOnly ? -1 : 0}
                            data-focus-key={`${row}:${field}`}
                            data-field={field}
                            title={readOnly ? undefined : 'Enter or double-click to edit'}
                            onDblClick={() => !readOnly && setEditing({ row, field, text: cellText(item[field]) })}
                            onKeyDown={(e) => {
                              if (!readOnly && e.key === 'Enter') (e.preventDefault(), setEditing({ row, field, text: cellText(item[field]) }));
                            }}
                          >
                            {cellText(item[field])}
                          </span>
                        )}
                      </td>
                    );
                  })}
                  <td class="row-actions">
                    <button type="button" data-focus-key={`${row}:json`} aria-label={`Edit ${idOf(item)} as JSON`} onClick={() => editItem(row)}>
                      JSON
                    </button>
                    <button type="button" aria-label={`Duplicate ${idOf(item)}`} onClick={() => act(() => write(itemPath(item, '/duplicate'), { method: 'POST' }, `Duplicated ${idOf(item)}.`))}>
                      Duplicate
                    </button>
                    <button type="button" aria-label={`Delete ${idOf(item)}`} onClick={() => act(() => write(itemPath(item), { method: 'DELETE', headers: { 'If-Match': page.etags[row]! } }, `Deleted ${idOf(item)}.`))}>
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {page && page.items.length === 0 && <p class="dim">No items{q ? ' match the filter' : ''}.</p>}
        {collections.length === 0 && objects.length === 0 && <p class="dim">No collections (JSON arrays of objects in the mocks folder).</p>}
      </div>
      {page && (
        <div class="toolbar pager">
          <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
            Previous
          </button>
          <span class="count" data-testid="data-range">
            {page.total === 0 ? '0' : `${(offset + 1).toLocaleString('en')}–${Math.min(offset + PAGE, page.total).toLocaleString('en')}`} of {page.total.toLocaleString('en')}
          </span>
          <button type="button" disabled={offset + PAGE >= page.total} onClick={() => setOffset(offset + PAGE)}>
            Next
          </button>
        </div>
      )}
      {dialog && (
        <div
          class="dialog"
          role="dialog"
          aria-modal="true"
          aria-label={dialog.title}
          onKeyDown={(e) => {
            if (e.key === 'Escape') (e.preventDefault(), closeDialog());
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) (e.preventDefault(), void submitDialog());
          }}
        >
          <h2>{dialog.title}</h2>
          <textarea key={dialog.title} ref={dialogText} class="mono" aria-label="JSON" rows={14} spellcheck={false} defaultValue={dialog.text} />
          <p class="error" role="alert" data-testid="dialog-error">
            {dialogError ?? '\u00a0'}
          </p>
          <div class="toolbar">
            <button type="button" onClick={() => void submitDialog()}>
              Save <span class="dim">(Ctrl+Enter)</span>
            </button>
            <button type="button" onClick={closeDialog}>
              Cancel <span class="dim">(Esc)</span>
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
