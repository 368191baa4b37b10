/**
 * Requests: the journal, live. The last entries come from `GET requests`, new ones from the SSE
 * stream `requests/stream`; arrivals are applied once per animation frame (50 a second cost one
 * render per frame, not 50), the list is capped at the journal's size and drawn virtualised.
 * Filters (method, status class, path text, session) work on what is loaded; a row opens the
 * detail drawer. Webhooks the mock sent (`outgoing` entries, one per attempt) are rows marked ↗
 * naming their event, attempt and outcome; their drawer links to the request that caused them.
 * An entry the openapi layer tied to an operation (a refusal, a contract violation) names it; its
 * drawer opens that operation in the OpenAPI tab, whose "back" brings the entry back here.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { JournalEntry, CapturedBody } from '../journal.js';
import { ADMIN, getJson, type Transport } from './api.js';
import { bytes, clockTime, header, prettyBody } from './pretty.js';
import { readEventStream } from './sse.js';
import { VirtualRows } from './virtual-rows.js';

const MAX_ENTRIES = 5000;
/** The session filter's value for requests that carried no session. */
const NO_SESSION = '\u0000none';

/** What the "Answered by" column says of an outgoing webhook's attempt. */
function outgoingText(e: JournalEntry): string {
  const o = e.outgoing!;
  return `webhook ${o.event} · ${o.attempt}/${o.attempts} ${o.outcome}${o.error ? ` (${o.error})` : ''}${o.causeId !== null ? ` ← #${o.causeId}` : ` ← ${o.cause}`}`;
}

function statusClass(status: number | null): string {
  if (status === null) return 'st-pass';
  return `st-${Math.floor(status / 100)}xx`;
}

export interface RequestsTabProps {
  transport: Transport;
  active: boolean;
  /** Opens an entry's OpenAPI operation (its label) in the OpenAPI tab; absent without one. */
  onOperation?: ((label: string, from: number) => void) | undefined;
  /** An entry to show again (the OpenAPI tab's "back"): its drawer opens, focus on its operation. */
  reveal?: { id: number } | null;
}

export function RequestsTab({ transport, active, onOperation, reveal }: RequestsTabProps) {
  const [entries, setEntries] = useState<JournalEntry[]>([]);
  const [live, setLive] = useState<'connecting' | 'live' | 'off'>('connecting');
  const [error, setError] = useState<string | null>(null);
  const [method, setMethod] = useState('');
  const [status, setStatus] = useState('');
  const [path, setPath] = useState('');
  /** '' = every request; NO_SESSION = requests without a session; else a session id. */
  const [session, setSession] = useState('');
  /** Only the answers that broke the OpenAPI document (`openapi.validateResponses`). */
  const [violations, setViolations] = useState(false);
  const [selected, setSelected] = useState<JournalEntry | null>(null);
  const pending = useRef<JournalEntry[]>([]);
  const frame = useRef(0);
  const operationButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!reveal) return;
    const e = entries.find((x) => x.id === reveal.id);
    if (e) setSelected(e);
    requestAnimationFrame(() => operationButton.current?.focus());
  }, [reveal]);

  // Started before the first paint.
  useLayoutEffect(() => {
    const abort = new AbortController();
    const flush = () => {
      frame.current = 0;
      const add = pending.current;
      pending.current = [];
      if (add.length === 0) return;
      add.reverse();
      setEntries((old) => {
        const lastId = old[0]?.id ?? -1;
        const fresh = add.filter((e) => e.id > lastId);
        const next = fresh.length ? fresh.concat(old) : old;
        return next.length > MAX_ENTRIES ? next.slice(0, MAX_ENTRIES) : next;
      });
    };
    (async () => {
      try {
        const stream = transport(`${ADMIN}/requests/stream`, { signal: abort.signal, headers: { Accept: 'text/event-stream' } });
        const { entries: first } = await getJson<{ entries: JournalEntry[] }>(transport, `${ADMIN}/requests?limit=${MAX_ENTRIES}`);
        setEntries(first);
        const res = await stream;
        setLive('live');
        await readEventStream(
          res,
          (event, data) => {
            if (event !== 'request') return;
            pending.current.push(JSON.parse(data) as JournalEntry);
            if (!frame.current) frame.current = requestAnimationFrame(flush);
          },
          abort.signal,
        );
        setLive('off');
      } catch (err) {
        if (!abort.signal.aborted) {
          setLive('off');
          setError(String((err as Error).message ?? err));
        }
      }
    })();
    return () => {
      abort.abort();
      cancelAnimationFrame(frame.current);
    };
  }, [transport]);

  const sessions = useMemo(() => [...new Set(entries.map((e) => e.session).filter((s): s is string => typeof s === 'string'))].sort(), [entries]);

  const shown = useMemo(() => {
    if (!method && !status && !path && !session && !violations) return entries;
    const p = path.toLowerCase();
    return entries.filter(
      (e) =>
        (!method || e.method === method) &&
        (!status || (status === 'pass' ? e.status === null : e.status !== null && String(e.status)[0] === status[0])) &&
        (!p || e.url.toLowerCase().includes(p)) &&
        (!session || (session === NO_SESSION ? !e.session : e.session === session)) &&
        (!violations || !!e.violations),
    );
  }, [entries, method, status, path, session, violations]);

  const clear = async () => {
    await transport(`${ADMIN}/requests`, { method: 'DELETE' });
    setEntries([]);
    setSelected(null);
  };

  return (
    <section class="tab requests" hidden={!active} role="tabpanel" id="panel-requests" aria-labelledby="tab-requests">
      <div class="toolbar">
        <select aria-label="Method" value={method} onChange={(e) => setMethod(e.currentTarget.value)}>
          <option value="">All methods</option>
          {['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'].map((m) => (
            <option value={m}>{m}</option>
          ))}
        </select>
        <select aria-label="Status" value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
          <option value="">All statuses</option>
          <option value="2xx">2xx</option>
          <option value="3xx">3xx</option>
          <option value="4xx">4xx</option>
          <option value="5xx">5xx</option>
          <option value="pass">passed on</option>
        </select>
        <input type="search" placeholder="Filter by path" aria-label="Path filter" value={path} onInput={(e) => setPath(e.currentTarget.value)} />
        <select aria-label="Session" value={session} onChange={(e) => setSession(e.currentTarget.value)}>
          <option value="">All sessions</option>
          <option value={NO_SESSION}>No session</option>
          {sessions.map((id) => (
            <option value={id}>{id}</option>
          ))}
        </select>
        <label class="check" title="Answers that do not match the OpenAPI document (openapi.validateResponses)">
          <input type="checkbox" aria-label="Contract violations only" checked={violations} onChange={(e) => setViolations(e.currentTarget.checked)} /> Contract violations
        </label>
        <span class={`live-dot ${live}`} title={live === 'live' ? 'Live' : live}>
          {live === 'live' ? 'live' : live}
        </span>
        <span class="count" data-testid="requests-count">
          {shown.length === entries.length ? `${entries.length} requests` : `${shown.length} of ${entries.length}`}
        </span>
        <button type="button" onClick={clear}>
          Clear
        </button>
      </div>
      {error && <p class="error">{error}</p>}
      <div class="grid-head req-cols" role="row">
        <span>Time</span>
        <span>Method</span>
        <span>Status</span>
        <span>Path</span>
        <span>Answered by</span>
        <span class="num">ms</span>
      </div>
      <VirtualRows
        label="Requests"
        class="requests-rows"
        items={shown}
        row={(e) => (
          <div key={e.id} class={`grid-row req-cols ${selected?.id === e.id ? 'sel' : ''}${e.outgoing ? ' outgoing' : ''}`} role="row" data-id={e.id} data-outgoing={e.outgoing ? 'true' : undefined} tabIndex={0} onClick={() => setSelected(e)} onKeyDown={(k) => k.key === 'Enter' && setSelected(e)}>
            <span class="mono dim">{clockTime(e.time)}</span>
            <span class="mono" title={e.outgoing ? 'sent by the mock (a webhook)' : undefined}>
              {e.outgoing ? '↗ ' : ''}
              {e.method}
            </span>
            <span class={`mono ${statusClass(e.status)}`} title={e.violations ? `does not match ${e.violations.operation}` : undefined}>
              {e.status ?? (e.outgoing ? '✕' : '→')}
              {e.violations ? <span class="violation" aria-label="contract violation"> ⚠</span> : null}
            </span>
            <span class="mono path" title={e.url}>
              {e.url}
            </span>
            <span class="dim">
              {e.outgoing ? outgoingText(e) : ''}
              {e.answeredBy ? `${e.answeredBy.layer}${e.answeredBy.detail ? ` · ${e.answeredBy.detail}` : ''}` : ''}
              {e.operation ? ` · ${e.operation.label}` : ''}
              {e.scenario ? ` [${e.scenario}]` : ''}
              {e.session ? ` {${e.session}}` : ''}
            </span>
            <span class="num mono dim">{e.ms.toFixed(1)}</span>
          </div>
        )}
      />
      {selected && (
        <RequestDrawer
          entry={selected}
          onClose={() => setSelected(null)}
          onCause={(id) => setSelected(entries.find((x) => x.id === id) ?? selected)}
          onOperation={onOperation}
          operationButton={operationButton}
        />
      )}
    </section>
  );
}

function Headers({ headers }: { headers: Record<string, string> }) {
  const names = Object.keys(headers);
  if (names.length === 0) return <p class="dim">No headers</p>;
  return (
    <dl class="headers">
      {names.map((n) => [<dt>{n}</dt>, <dd class="mono">{headers[n]}</dd>])}
    </dl>
  );
}

function Body({ body, headers }: { body: CapturedBody | null; headers: Record<string, string> }) {
  if (!body) return <p class="dim">No body</p>;
  if (!body.captured) return <p class="dim">Body not recorded (a stream or a forwarded answer){body.size !== null ? `, ${bytes(body.size)}` : ''}</p>;
  if (body.text === undefined) return <p class="dim">Binary body, {bytes(body.size)}</p>;
  return (
    <>
      <pre class="body">{prettyBody(body.text, header(headers, 'content-type'))}</pre>
      {body.truncated && <p class="dim">Truncated: first bytes of {bytes(body.size)}</p>}
    </>
  );
}

interface DrawerProps {
  entry: JournalEntry;
  onClose: () => void;
  onCause: (id: number) => void;
  onOperation: RequestsTabProps['onOperation'];
  operationButton: { current: HTMLButtonElement | null };
}

function RequestDrawer({ entry, onClose, onCause, onOperation, operationButton }: DrawerProps) {
  const o = entry.outgoing;
  const op = entry.operation;
  return (
    <aside class="drawer" aria-label="Request detail">
      <header>
        <h2 class="mono">
          <span>{entry.method}</span> <span>{entry.url}</span>
        </h2>
        <button type="button" class="close" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </header>
      <p class="dim">
        {entry.status ?? 'passed on'} · {entry.ms.toFixed(1)} ms · {new Date(entry.time).toISOString()}
        {entry.answeredBy ? ` · ${entry.answeredBy.layer}${entry.answeredBy.detail ? ` ${entry.answeredBy.detail}` : ''}` : ''}
        {entry.scenario ? ` · scenario ${entry.scenario}` : ''}
        {entry.session ? ` · session ${entry.session}` : ''}
        {entry.fault ? ` · fault ${entry.fault.type}${entry.fault.status ? ` ${entry.fault.status}` : ''}${entry.fault.delay ? ` (+${entry.fault.delay} ms)` : ''}` : ''}
      </p>
      {o && (
        <p class="outgoing-detail">
          Webhook <b>{o.event}</b> sent by the mock · attempt {o.attempt} of {o.attempts} · {o.outcome}
          {o.error ? ` · ${o.error}` : ''} · delivery <span class="mono">{o.deliveryId}</span> · caused by{' '}
          {o.causeId !== null ? (
            <button type="button" class="link" onClick={() => onCause(o.causeId!)}>
              {o.cause} (#{o.causeId})
            </button>
          ) : (
            o.cause
          )}
        </p>
      )}
      {op && (
        <p class="operation" data-testid="entry-operation">
          OpenAPI operation <span class="mono">{op.label}</span>
          {op.operationId ? <span class="mono dim"> ({op.operationId})</span> : null}
          {onOperation && (
            <>
              {' '}
              <button type="button" class="link" ref={operationButton} onClick={() => onOperation(op.label, entry.id)}>
                Open in the OpenAPI tab
              </button>
            </>
          )}
        </p>
      )}
      {entry.violations && (
        <>
          <h3>Contract violations ({entry.violations.operation}, {entry.violations.status})</h3>
          <ul class="violations mono">
            {entry.violations.problems.map((p) => (
              <li>
                {p.pointer || '(answer)'} {p.message}
              </li>
            ))}
          </ul>
        </>
      )}
      <h3>Request headers</h3>
      <Headers headers={entry.request.headers} />
      <h3>Request body</h3>
      <Body body={entry.request.body} headers={entry.request.headers} />
      {entry.response && (
        <>
          <h3>Response headers</h3>
          <Headers headers={entry.response.headers} />
          <h3>Response body</h3>
          <Body body={entry.response.body} headers={entry.response.headers} />
        </>
      )}
    </aside>
  );
}
