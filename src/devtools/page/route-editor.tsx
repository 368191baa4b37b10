/**
 * The Routes tab's editors, each an admin API call:
 *   - RouteOverrides: per route a delay, a status, a connection fault or "off", kept where the
 *     user picks: a session (POST sessions/<id>/overrides: the requests that carry it, by the
 *     X-Mockyard-Session header or the cookie "Use in this browser" sets for this origin), the
 *     shared overrides (POST overrides: every request without a session), or a saved scenario
 *     (POST scenarios/<name>/overrides, then "Use this scenario": PUT scenario); listed, and
 *     undone one by one (DELETE …/overrides/<n>).
 *   - NewRoute: a static route (status, headers, JSON or text) saved as an ordinary mock file
 *     (POST routes: `flags.json`, or `flags@recorded.json` with a status or headers; an existing
 *     route is never overwritten); the CLI serves it as any other.
 *   - FileEditor: a mock file's body, edited with validation (JSON must parse) and saved with
 *     If-Match: an edit made on disk or in another tab meanwhile is a 412, reported, the draft kept.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { CONNECTION_FAULT_TYPES } from '../../core/connection-fault.js';
import { ADMIN, getJson, readJson, type Transport } from './api.js';

interface Override {
  method?: string;
  path: string;
  status?: number;
  delay?: unknown;
  errorRate?: number;
  fault?: unknown;
  body?: unknown;
  prefer?: string;
}
interface SessionInfo {
  id: string;
  overrides: Override[];
}
type Target = 'session' | 'shared' | 'scenario';

const METHODS = ['*', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const COOKIE = 'X-Mockyard-Session';

/** How an override reads in the list. */
export function describeOverride(o: Override): string {
  const parts: string[] = [];
  if (o.delay !== undefined) parts.push(`delay ${JSON.stringify(o.delay)} ms`);
  if (o.fault !== undefined) parts.push(`fault ${typeof o.fault === 'string' ? o.fault : (o.fault as { type: string }).type}`);
  else if (o.status === 404 && o.errorRate === 1) parts.push('off (404)');
  else if (o.status !== undefined) parts.push(`status ${o.status}`);
  if (o.body !== undefined) parts.push('body');
  if (o.prefer !== undefined) parts.push(`Prefer ${o.prefer}`);
  return `${o.method ?? '*'} ${o.path} → ${parts.join(', ') || 'answer'}`;
}

function cookieSession(): string | null {
  const m = new RegExp(`(?:^|; )${COOKIE}=([^;]*)`).exec(document.cookie);
  return m ? decodeURIComponent(m[1]!) : null;
}

export function RouteOverrides({ transport, paths }: { transport: Transport; paths: string[] }) {
  const [sessions, setSessions] = useState<SessionInfo[]>([]);
  const [session, setSession] = useState<string>('');
  const [method, setMethod] = useState('GET');
  const [path, setPath] = useState('');
  const [kind, setKind] = useState<'delay' | 'status' | 'fault' | 'off'>('delay');
  const [value, setValue] = useState('1000');
  const [note, setNote] = useState<{ text: string; error: boolean } | null>(null);
  const [inBrowser, setInBrowser] = useState<string | null>(() => cookieSession());
  const [target, setTarget] = useState<Target>('session');
  const [shared, setShared] = useState<Override[]>([]);
  const [saved, setSaved] = useState<Record<string, Override[]>>({});
  const [scenario, setScenario] = useState<string | null>(null);

  const load = async () => {
    try {
      const [s, o, sc] = await Promise.all([
        getJson<{ sessions: SessionInfo[] }>(transport, `${ADMIN}/sessions`),
        getJson<{ overrides: Override[] }>(transport, `${ADMIN}/overrides`),
        getJson<{ current: string | null; saved?: Record<string, Override[]> }>(transport, `${ADMIN}/scenario`),
      ]);
      setSessions(s.sessions);
      setShared(o.overrides);
      setSaved(sc.saved ?? {});
      setScenario(sc.current);
    } catch (e) {
      setNote({ text: (e as Error).message, error: true });
    }
  };
  useEffect(() => {
    void load();
  }, [transport]);
  const current = sessions.find((s) => s.id === session);
  const base = target === 'shared' ? `${ADMIN}/overrides` : `${ADMIN}/${target === 'session' ? 'sessions' : 'scenarios'}/${encodeURIComponent(session)}/overrides`;
  const list = target === 'shared' ? shared : target === 'scenario' ? saved[session] : current?.overrides;
  const choose = async (name: string | null) => {
    try {
      await readJson(await transport(`${ADMIN}/scenario`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name }) }));
      setNote({ text: name ? `Scenario ${name} is used by every request without a session.` : 'Back to the base (no scenario).', error: false });
      await load();
    } catch (err) {
      setNote({ text: (err as Error).message, error: true });
    }
  };

  const add = async (e: Event) => {
    e.preventDefault();
    if (!session && target !== 'shared') return setNote({ text: target === 'session' ? 'Name a session first: overrides apply to the requests of one session.' : 'Name the scenario to keep the override in.', error: true });
    const o: Record<string, unknown> = { method, path };
    if (kind === 'delay') o.delay = Number(value);
    if (kind === 'status') Object.assign(o, Number(value) >= 400 ? { status: Number(value), errorRate: 1 } : { status: Number(value) });
    if (kind === 'fault') o.fault = value;
    if (kind === 'off') Object.assign(o, { status: 404, errorRate: 1 });
    try {
      await readJson(await transport(base, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(o) }));
      setNote({ text: `Added: ${describeOverride(o as unknown as Override)}`, error: false });
      await load();
    } catch (err) {
      setNote({ text: (err as Error).message, error: true });
    }
  };
  const undo = async (index: number) => {
    try {
      await readJson(await transport(`${base}/${index}`, { method: 'DELETE' }));
      setNote({ text: 'Override removed.', error: false });
      await load();
    } catch (err) {
      setNote({ text: (err as Error).message, error: true });
    }
  };
  const useInBrowser = (on: boolean) => {
    document.cookie = on ? `${COOKIE}=${encodeURIComponent(session)}; path=/; SameSite=Lax` : `${COOKIE}=; path=/; max-age=0; SameSite=Lax`;
    setInBrowser(on ? session : null);
  };

  return (
    <div class="editor" aria-label="Route overrides">
      <h2>Route overrides</h2>
      <p class="dim">
        A session's apply to requests with <code>X-Mockyard-Session</code> (or its cookie, set by <em>Use in this browser</em>); shared ones to every request without a session; a saved scenario's when it is chosen.
        {inBrowser && (
          <>
            {' '}
            This browser uses session <strong data-testid="browser-session">{inBrowser}</strong>.
          </>
        )}
      </p>
      <form class="row" onSubmit={add}>
        <label>
          Keep in
          <select value={target} data-testid="override-target" onChange={(e) => setTarget((e.target as HTMLSelectElement).value as Target)}>
            <option value="session">a session</option>
            <option value="shared">shared (no session)</option>
            <option value="scenario">a saved scenario</option>
          </select>
        </label>
        {target !== 'shared' && (
          <label>
            {target === 'session' ? 'Session' : 'Scenario'}
            <input list={`mockyard-${target}s`} value={session} size={12} data-testid="override-session" onInput={(e) => setSession((e.target as HTMLInputElement).value.trim())} />
          </label>
        )}
        <datalist id="mockyard-sessions">
          {sessions.map((s) => (
            <option value={s.id} />
          ))}
        </datalist>
        <datalist id="mockyard-scenarios">
          {Object.keys(saved).map((n) => (
            <option value={n} />
          ))}
        </datalist>
        <label>
          Method
          <select value={method} onChange={(e) => setMethod((e.target as HTMLSelectElement).value)}>
            {METHODS.map((m) => (
              <option>{m}</option>
            ))}
          </select>
        </label>
        <label>
          Path
          <input list="mockyard-paths" value={path} placeholder="/todos/:id" size={14} data-testid="override-path" onInput={(e) => setPath((e.target as HTMLInputElement).value.trim())} />
        </label>
        <datalist id="mockyard-paths">
          {paths.map((p) => (
            <option value={p} />
          ))}
        </datalist>
        <label>
          Change
          <select
            value={kind}
            data-testid="override-kind"
            onChange={(e) => {
              const k = (e.target as HTMLSelectElement).value as typeof kind;
              setKind(k);
              setValue(k === 'delay' ? '1000' : k === 'status' ? '500' : k === 'fault' ? CONNECTION_FAULT_TYPES[0]! : '');
            }}
          >
            <option value="delay">delay (ms)</option>
            <option value="status">status</option>
            <option value="fault">fault</option>
            <option value="off">off (404)</option>
          </select>
        </label>
        {kind === 'fault' ? (
          <select aria-label="Fault" value={value} onChange={(e) => setValue((e.target as HTMLSelectElement).value)}>
            {CONNECTION_FAULT_TYPES.map((t) => (
              <option>{t}</option>
            ))}
          </select>
        ) : kind === 'off' ? null : (
          <input aria-label={kind === 'delay' ? 'Delay in ms' : 'Status'} data-testid="override-value" inputMode="numeric" value={value} size={6} onInput={(e) => setValue((e.target as HTMLInputElement).value)} />
        )}
        <button type="submit">Add override</button>
      </form>
      <p class={`note ${note?.error ? 'error' : 'dim'}`} role={note?.error ? 'alert' : 'status'} data-testid="override-note">
        {note?.text ?? '\u00a0'}
      </p>
      {list && (
        <>
          <div class="row">
            <strong data-testid="override-scope">{target === 'shared' ? 'Shared (every request without a session)' : `${target === 'session' ? 'Session' : 'Saved scenario'} ${session}`}</strong>
            {target === 'scenario' &&
              (scenario === session ? (
                <button type="button" onClick={() => choose(null)}>
                  Stop using this scenario
                </button>
              ) : (
                <button type="button" onClick={() => choose(session)}>
                  Use this scenario
                </button>
              ))}
            {target !== 'session' ? null : inBrowser === session ? (
              <button type="button" onClick={() => useInBrowser(false)}>
                Stop using in this browser
              </button>
            ) : (
              <button type="button" onClick={() => useInBrowser(true)}>
                Use in this browser
              </button>
            )}
          </div>
          <ul class="plain overrides" data-testid="override-list">
            {list.length === 0 && <li class="dim">No overrides.</li>}
            {list.map((o, i) => (
              <li>
                <span class="mono">{describeOverride(o)}</span>
                <button type="button" aria-label={`Undo ${describeOverride(o)}`} onClick={() => undo(i)}>
                  Undo
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/** A new static route (POST routes): status, headers and a JSON or text body, saved as a mock file. */
export function NewRoute({ transport, prefix, onCreated }: { transport: Transport; prefix: string; onCreated: () => void }) {
  const [path, setPath] = useState('');
  const [type, setType] = useState<'json' | 'txt'>('json');
  const [status, setStatus] = useState('200');
  const [headers, setHeaders] = useState('');
  const [body, setBody] = useState('{\n  \n}');
  const [note, setNote] = useState<{ text: string; error: boolean } | null>(null);
  const create = async (e: Event) => {
    e.preventDefault();
    const spec: Record<string, unknown> = { path, status: Number(status), headers: {} };
    for (const line of headers.split('\n')) {
      const at = line.indexOf(':');
      if (line.trim()) (spec.headers as Record<string, string>)[line.slice(0, at < 0 ? undefined : at).trim()] = at < 0 ? '' : line.slice(at + 1).trim();
    }
    try {
      if (type === 'txt') spec.text = body;
      else spec.body = JSON.parse(body);
    } catch (err) {
      return setNote({ text: `Not JSON: ${(err as Error).message}`, error: true });
    }
    try {
      const made = await readJson<{ file: string; url: string; status: number }>(await transport(`${ADMIN}/routes`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(spec) }));
      setNote({ text: `Created ${made.file}: GET ${made.url} answers ${made.status}.`, error: false });
      onCreated();
    } catch (err) {
      setNote({ text: (err as Error).message, error: true });
    }
  };
  const input = (e: Event) => (e.target as HTMLInputElement).value;
  return (
    <form class="editor" aria-label="New route" onSubmit={create}>
      <h2>New route</h2>
      <div class="row">
        <label>
          Path <span class="dim mono">{prefix === '/' ? '/' : `${prefix.replace(/\/$/, '')}/`}</span>
          <input value={path} placeholder="flags" size={16} data-testid="new-route-path" onInput={(e) => setPath(input(e).trim())} />
        </label>
        <label>
          Status
          <input type="number" min={200} max={599} value={status} data-testid="new-route-status" onInput={(e) => setStatus(input(e))} />
        </label>
        <label>
          Body
          <select value={type} onChange={(e) => setType(input(e) as 'json' | 'txt')}>
            <option value="json">JSON</option>
            <option value="txt">text</option>
          </select>
        </label>
      </div>
      <textarea aria-label="Route headers" rows={2} spellcheck={false} value={headers} placeholder="X-Flag: on (one header a line)" data-testid="new-route-headers" onInput={(e) => setHeaders(input(e))} />
      <textarea aria-label="Route body" rows={5} spellcheck={false} value={body} data-testid="new-route-body" onInput={(e) => setBody(input(e))} />
      <div class="row">
        <button type="submit">Create route</button>
      </div>
      <p class={`note ${note?.error ? 'error' : 'dim'}`} role={note?.error ? 'alert' : 'status'} data-testid="new-route-note">
        {note?.text ?? '\u00a0'}
      </p>
    </form>
  );
}

/** Edits one mock file's body (JSON validated), saved with If-Match. */
export function FileEditor({ transport, file, onClose }: { transport: Transport; file: string; onClose: () => void }) {
  const [text, setText] = useState<string | null>(null);
  const [etag, setEtag] = useState<string | null>(null);
  const [note, setNote] = useState<{ text: string; error: boolean } | null>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  const url = `${ADMIN}/files/${file.split('/').map(encodeURIComponent).join('/')}`;
  const load = async () => {
    const res = await transport(url);
    if (!res.ok) return setNote({ text: `${res.status}: could not read ${file}`, error: true });
    setEtag(res.headers.get('etag'));
    const body = await res.text();
    setText(body);
    if (area.current) area.current.value = body; // Reload: the textarea keeps its element (and focus)
  };
  useEffect(() => {
    setText(null);
    setNote(null);
    void load().then(() => area.current?.focus());
  }, [file]);
  const save = async () => {
    const draft = area.current?.value ?? text ?? '';
    if (/\.json$/i.test(file)) {
      try {
        JSON.parse(draft);
      } catch (err) {
        return setNote({ text: `Not saved, not JSON: ${(err as Error).message}`, error: true });
      }
    }
    const res = await transport(url, { method: 'PUT', headers: { 'If-Match': etag ?? '*' }, body: draft });
    if (res.status === 412) {
      return setNote({ text: `Not saved: ${file} was changed since you opened it (on disk or in another tab). Your draft is kept; Reload shows the current file.`, error: true });
    }
    try {
      await readJson(res);
    } catch (err) {
      return setNote({ text: (err as Error).message, error: true });
    }
    setEtag(res.headers.get('etag'));
    setText(draft);
    setNote({ text: `Saved ${file}.`, error: false });
    area.current?.focus();
  };
  return (
    <div
      class="editor"
      aria-label={`Edit ${file}`}
      onKeyDown={(e) => {
        if (e.key === 'Escape') (e.preventDefault(), onClose());
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) (e.preventDefault(), void save());
      }}
    >
      <h2 class="mono">Edit {file}</h2>
      {text !== null && <textarea key={file} ref={area} aria-label={`Body of ${file}`} rows={14} spellcheck={false} defaultValue={text} data-testid="file-body" />}
      <div class="row">
        <button type="button" onClick={() => void save()}>
          Save <span class="dim">(Ctrl+Enter)</span>
        </button>
        <button type="button" onClick={() => (setNote(null), void load())}>
          Reload
        </button>
        <button type="button" onClick={onClose}>
          Close <span class="dim">(Esc)</span>
        </button>
      </div>
      <p class={`note ${note?.error ? 'error' : 'dim'}`} role={note?.error ? 'alert' : 'status'} data-testid="file-note">
        {note?.text ?? '\u00a0'}
      </p>
    </div>
  );
}
