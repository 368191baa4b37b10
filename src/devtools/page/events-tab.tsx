/**
 * Events: the collector, read with the contract's read API per window — the newest page first
 * (rendered at once, with the window's exact count), the older pages in the background (KPIs,
 * chart and top lists marked partial until they are in) — and `push` messages over its WebSocket
 * merged into the loaded events without re-querying. Relative presets (live, 1 h, 24 h, 7 d) move with time: every
 * TICK_MS the window's ends advance and what falls out is dropped; custom is fixed (no pushes).
 * KPIs, chart, top lists and the table all follow the filters. *Delete range…* deletes a time
 * range [from, to) from the collector's store (DELETE events, the admin API) and reads the window again.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { TrackerEvent } from '../../tracker/types.js';
import { ADMIN, download, readJson, type Transport } from './api.js';
import { EventsChart } from './events-chart.js';
import {
  applyFilters,
  facets,
  isError,
  levelOf,
  mergeRows,
  messageOf,
  NO_FILTERS,
  routeOf,
  summarize,
  toRows,
  typeOf,
  userOf,
  windowFor,
  withinWindow,
  type Filters,
  type Preset,
  type Row,
  type TimeWindow,
} from './events-model.js';
import { dateTime } from './pretty.js';
import { openPushSocket } from './push-socket.js';
import { readWindowInPages } from './window-pages.js';
import { VirtualRows } from './virtual-rows.js';

const TICK_MS = 5_000;
const KEY_STORE = 'mockyard-tracker-key';

const toLocalInput = (ms: number) => {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
};

export function EventsTab({ transport, active, basePath }: { transport: Transport; active: boolean; basePath: string | null }) {
  const [preset, setPreset] = useState<Preset>('1h');
  const [custom, setCustom] = useState<TimeWindow>(() => ({ since: Date.now() - 3_600_000, until: Date.now() }));
  const [now, setNow] = useState(() => Date.now());
  const [rows, setRows] = useState<Row[]>([]);
  // partial: the newest page is shown, older pages are still arriving (`remaining` events).
  const [state, setState] = useState<'idle' | 'loading' | 'partial' | 'ready' | 'error'>('idle');
  const [remaining, setRemaining] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [selected, setSelected] = useState<TrackerEvent | null>(null);
  const [key, setKey] = useState(() => sessionStorage.getItem(KEY_STORE) ?? '');
  const [socket, setSocket] = useState<'off' | 'open' | 'closed'>('off');
  // The delete dialog's range [from, to), its error, what the last delete did; `reload` reads again.
  const [del, setDel] = useState<{ from: number; to: number; error?: string } | null>(null);
  const [note, setNote] = useState('');
  const [reload, setReload] = useState(0);
  const delButton = useRef<HTMLButtonElement>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const deleting = del !== null;
  useEffect(() => {
    if (deleting) confirmButton.current?.focus();
  }, [deleting]);
  const loadStart = useRef(0);
  const section = useRef<HTMLElement>(null);
  const pushed = useRef<Row[]>([]);
  const frame = useRef(0);
  const moving = preset !== 'custom';
  // Loaded on the tab's first opening, then kept (live) while the page is open.
  const [opened, setOpened] = useState(active);
  if (active && !opened) setOpened(true);

  // Per preset / custom range (and API key), started before the first paint: for a moving window
  // the push socket first (push-socket.ts: once it is live, nothing stored later is missed), then
  // the window newest page first and the rest in the background (window-pages.ts). Pushes and
  // pages go through one merge (mergeRows: newest first, each id once), pushes once per frame.
  useLayoutEffect(() => {
    if (!opened || basePath === null) return;
    const abort = new AbortController();
    const w = windowFor(preset, Date.now(), custom);
    setNow(Date.now());
    setRows([]);
    setRemaining(0);
    setState('loading');
    setError(null);
    loadStart.current = performance.now();
    section.current?.removeAttribute('data-first-render-ms');
    section.current?.removeAttribute('data-complete-ms');
    const flush = () => {
      frame.current = 0;
      const add = pushed.current;
      pushed.current = [];
      if (add.length) {
        setRows((old) => mergeRows(old, add));
        setNow(Date.now());
      }
    };
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const pushes = moving
      ? openPushSocket(
          `${scheme}://${location.host}${basePath}/ws`,
          key,
          (events) => {
            pushed.current.push(...toRows(events));
            if (!frame.current) frame.current = requestAnimationFrame(flush);
          },
          (open) => setSocket(open ? 'open' : 'closed'),
        )
      : undefined;
    void (pushes?.ready ?? Promise.resolve())
      .then(() =>
        readWindowInPages(transport, basePath, w, key, abort.signal, (page) => {
          const add = toRows(page.events);
          setRows((old) => mergeRows(old, add));
          setRemaining(Math.max(0, page.total - page.loaded));
          if (page.first) setState(page.last ? 'ready' : 'partial');
          else if (page.last) setState('ready');
        }),
      )
      .catch((e: Error) => {
        if (abort.signal.aborted) return;
        setState('error');
        setError(e.message);
      });
    return () => {
      abort.abort();
      pushes?.close();
      cancelAnimationFrame(frame.current);
      frame.current = 0;
      pushed.current = [];
      setSocket('off');
    };
  }, [opened, basePath, preset, custom, key, transport, reload]);

  // The window moves with time (relative presets).
  useEffect(() => {
    if (!opened || !moving) return;
    const t = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(t);
  }, [opened, moving]);

  const w = useMemo(() => (moving ? windowFor(preset, now, custom) : custom), [preset, now, custom, moving]);
  // Pushed events may be slightly ahead of this clock: the window's end stays open while it moves.
  const inWindow = useMemo(() => withinWindow(rows, moving ? { since: w.since, until: Infinity } : w), [rows, w, moving]);
  const menus = useMemo(() => facets(inWindow), [inWindow]);
  const shown = useMemo(() => applyFilters(inWindow, filters), [inWindow, filters]);
  const summary = useMemo(() => summarize(shown, w), [shown, w]);

  // The page's own figures (bench/devtools-page.mjs): first render, and the whole window loaded.
  useEffect(() => {
    if ((state === 'partial' || state === 'ready') && loadStart.current && !section.current?.hasAttribute('data-first-render-ms')) {
      performance.mark('mockyard:events:rendered');
      section.current?.setAttribute('data-first-render-ms', String(Math.round(performance.now() - loadStart.current)));
    }
    if (state === 'ready' && loadStart.current) {
      performance.mark('mockyard:events:complete');
      section.current?.setAttribute('data-complete-ms', String(Math.round(performance.now() - loadStart.current)));
      loadStart.current = 0;
    }
  }, [state]);
  const partial = state === 'partial';
  const filtered = shown !== inWindow;
  // The window's exact count is known from the first read: loaded rows plus those still coming.
  const windowCount = inWindow.length + (partial ? remaining : 0);

  /** The window as JSON Lines, through the admin API (GET events/export), downloaded. */
  const exportWindow = async () => {
    const q = new URLSearchParams({ since: new Date(w.since).toISOString(), until: new Date(moving ? Date.now() : w.until).toISOString() });
    await download(transport(`${ADMIN}/events/export?${q}`, { headers: key ? { 'X-Tracker-Key': key } : {} }), 'events.jsonl').catch(() => {});
  };
  const closeDelete = () => (setDel(null), delButton.current?.focus());
  const deleteRange = async () => {
    if (!del) return;
    const q = new URLSearchParams({ from: new Date(del.from).toISOString(), to: new Date(del.to).toISOString() });
    try {
      const r = await readJson<{ deleted: number }>(await transport(`${ADMIN}/events?${q}`, { method: 'DELETE', headers: key ? { 'X-Tracker-Key': key } : {} }));
      setNote(`Deleted ${r.deleted.toLocaleString('en')} events (${dateTime(del.from)} – ${dateTime(del.to)}).`);
      closeDelete();
      setReload((n) => n + 1);
    } catch (e) {
      setDel({ ...del, error: (e as Error).message });
    }
  };
  const rangeInput = (k: 'from' | 'to', label: string) => (
    <label>
      {label}{' '}
      <input type="datetime-local" value={toLocalInput(del![k])} onChange={(e) => setDel({ ...del!, [k]: new Date(e.currentTarget.value).getTime() || del![k] })} />
    </label>
  );
  const set = (k: keyof Filters) => (e: Event) => setFilters({ ...filters, [k]: (e.currentTarget as HTMLInputElement).value });
  const menu = (k: 'type' | 'level' | 'user' | 'route', label: string, values: string[]) => (
    <select aria-label={label} value={filters[k]} onChange={set(k)}>
      <option value="">{`All ${label.toLowerCase()}s`}</option>
      {values.map((v) => (
        <option value={v}>{v}</option>
      ))}
    </select>
  );

  return (
    <section ref={section} class="tab events" hidden={!active} role="tabpanel" id="panel-events" aria-labelledby="tab-events" data-state={state} aria-busy={partial}>
      <div class="toolbar">
        <div class="presets" role="group" aria-label="Time range">
          {(['live', '1h', '24h', '7d', 'custom'] as const).map((p) => (
            <button type="button" aria-pressed={preset === p} onClick={() => setPreset(p)}>
              {p === 'live' ? 'Live' : p === 'custom' ? 'Custom' : p.replace('h', ' h').replace('d', ' d')}
            </button>
          ))}
        </div>
        {preset === 'custom' && (
          <span class="custom">
            <input type="datetime-local" aria-label="From" value={toLocalInput(custom.since)} onChange={(e) => setCustom({ ...custom, since: new Date(e.currentTarget.value).getTime() || custom.since })} />
            <span>–</span>
            <input type="datetime-local" aria-label="To" value={toLocalInput(custom.until)} onChange={(e) => setCustom({ ...custom, until: new Date(e.currentTarget.value).getTime() || custom.until })} />
          </span>
        )}
        {moving && <span class={`live-dot ${socket === 'open' ? 'live' : 'off'}`}>{socket === 'open' ? 'live' : 'not live'}</span>}
        <input
          type="password"
          class="key"
          placeholder="Collector API key"
          aria-label="Collector API key"
          value={key}
          onChange={(e) => {
            const v = e.currentTarget.value;
            sessionStorage.setItem(KEY_STORE, v);
            setKey(v);
          }}
        />
        <button type="button" data-testid="events-export" onClick={() => void exportWindow()}>
          Export JSON Lines
        </button>
        <button type="button" ref={delButton} data-testid="events-delete" disabled={basePath === null} onClick={() => setDel({ from: w.since, to: moving ? Date.now() : w.until + 1 })}>
          Delete range…
        </button>
        <span class="dim" role="status" data-testid="events-note">
          {note}
        </span>
      </div>
      {del && (
        <div
          class="dialog"
          role="dialog"
          aria-modal="true"
          aria-label="Delete events"
          onKeyDown={(e) => {
            if (e.key === 'Escape') (e.preventDefault(), closeDelete());
          }}
        >
          <h2>Delete events</h2>
          <p>
            {rangeInput('from', 'From')} {rangeInput('to', 'to (not included)')}
          </p>
          <p class="error" role="alert" data-testid="events-delete-error">
            {del.error ?? '\u00a0'}
          </p>
          <div class="toolbar">
            <button type="button" data-testid="events-delete-confirm" ref={confirmButton} onClick={() => void deleteRange()}>
              Delete from the collector
            </button>
            <button type="button" onClick={closeDelete}>
              Cancel <span class="dim">(Esc)</span>
            </button>
          </div>
        </div>
      )}
      {basePath === null && <p class="dim">No event collector on this host.</p>}
      {error && <p class="error">{error}</p>}
      {partial && (
        <p class="loading-note dim" data-testid="events-loading">
          {`Loading older events: ${(windowCount - remaining).toLocaleString('en')} of ${windowCount.toLocaleString('en')} — sessions, users, error rate, chart and top lists are partial until then`}
        </p>
      )}
      <div class={`kpis ${partial ? 'partial' : ''}`}>
        <Kpi label="Events" value={(filtered ? summary.events : windowCount).toLocaleString('en')} testid="kpi-events" />
        <Kpi label="Sessions" value={summary.sessions.toLocaleString('en')} testid="kpi-sessions" />
        <Kpi label="Users" value={summary.users.toLocaleString('en')} testid="kpi-users" />
        <Kpi label="Error rate" value={`${(summary.errorRate * 100).toFixed(1)} %`} testid="kpi-error-rate" />
      </div>
      <div class={`events-top ${partial ? 'partial' : ''}`}>
        {opened && <EventsChart chart={summary.chart} />}
        <TopList title="Top routes" items={summary.topRoutes} />
        <TopList title="Top types" items={summary.topTypes} />
        <TopList title="Top errors" items={summary.topErrors} />
      </div>
      <div class="toolbar filters">
        {menu('type', 'Type', menus.types)}
        {menu('level', 'Level', menus.levels)}
        {menu('user', 'User', menus.users)}
        {menu('route', 'Route', menus.routes)}
        <input type="search" placeholder="Search events" aria-label="Search events" value={filters.text} onInput={set('text')} />
        <span class="count" data-testid="events-count">
          {!filtered ? `${windowCount.toLocaleString('en')} events` : `${shown.length.toLocaleString('en')} of ${inWindow.length.toLocaleString('en')}${partial ? ' loaded' : ''}`}
        </span>
      </div>
      <div class="grid-head ev-cols" role="row">
        <span>Time</span>
        <span>Type</span>
        <span>Level</span>
        <span>User</span>
        <span>Route</span>
        <span>Message</span>
      </div>
      <VirtualRows
        label="Events"
        class="events-rows"
        items={shown}
        row={(r) => {
          const e = r.event;
          return (
            <div key={e.id} class={`grid-row ev-cols ${isError(e) ? 'err' : ''}`} role="row" data-id={e.id} tabIndex={0} onClick={() => setSelected(e)} onKeyDown={(k) => k.key === 'Enter' && setSelected(e)}>
              <span class="mono dim">{Number.isFinite(r.time) ? dateTime(r.time) : e.timestamp}</span>
              <span class="mono">{typeOf(e)}</span>
              <span class={`lvl lvl-${levelOf(e)}`}>{levelOf(e)}</span>
              <span class="mono">{userOf(e)}</span>
              <span class="mono path">{routeOf(e)}</span>
              <span class="msg">{messageOf(e)}</span>
            </div>
          );
        }}
      />
      {selected && (
        <aside class="drawer" aria-label="Event detail">
          <header>
            <h2 class="mono">{typeOf(selected) || 'event'}</h2>
            <button type="button" class="close" aria-label="Close" onClick={() => setSelected(null)}>
              ×
            </button>
          </header>
          <pre class="body">{JSON.stringify(selected, null, 2)}</pre>
        </aside>
      )}
    </section>
  );
}

function Kpi({ label, value, testid }: { label: string; value: string; testid: string }) {
  return (
    <div class="kpi">
      <div class="kpi-value" data-testid={testid}>
        {value}
      </div>
      <div class="kpi-label">{label}</div>
    </div>
  );
}

function TopList({ title, items }: { title: string; items: Array<[string, number]> }) {
  return (
    <div class="top">
      <h3>{title}</h3>
      {items.length === 0 ? (
        <p class="dim">—</p>
      ) : (
        <ol>
          {items.map(([name, n]) => (
            <li>
              <span class="top-name">{name}</span>
              <span class="num dim">{n.toLocaleString('en')}</span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
