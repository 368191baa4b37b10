/**
 * OpenAPI: the document's operations (GET openapi) with their documented responses and
 * examples; "Answer with this" keeps a `Prefer` for that operation as a session override (POST
 * sessions/<id>/overrides `{ method, path, prefer: "code=404, example=tom" }`), so the OpenAPI
 * backend's own Prefer rule picks the answer for that session's requests: a named example, or a
 * response documented by its schema only (generated; "fresh draw" adds `dynamic=true`). Undone
 * in the Routes or Sessions tab. Opened from a journal entry (a refusal, a contract violation),
 * it shows that entry's operation open and focused, with a way back to the entry.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ADMIN, getJson, readJson, type Transport } from './api.js';

interface Content {
  type: string;
  example?: unknown;
  examples: Record<string, unknown>;
}
interface Operation {
  method: string;
  template: string;
  pattern: string;
  label: string;
  operationId: string | null;
  responses: Array<{ code: string; description: string; contents: Content[] }>;
}
interface Doc {
  title: string;
  operations: Operation[];
}

/** `200` → 200, `2XX` → 200, `default` → 500. */
function statusOf(code: string): number {
  if (/^\d{3}$/.test(code)) return Number(code);
  if (/^[1-5]XX$/i.test(code)) return Number(code[0]) * 100;
  return 500;
}

export interface OpenApiTabProps {
  transport: Transport;
  active: boolean;
  /** An operation to show (a journal entry's): opened, scrolled to, focused; `from` the entry. */
  reveal?: { label: string; from: number } | null;
  /** Back to the journal entry the operation was opened from. */
  onBack?: (id: number) => void;
}

export function OpenApiTab({ transport, active, reveal, onBack }: OpenApiTabProps) {
  const [doc, setDoc] = useState<Doc | null>(null);
  const list = useRef<HTMLDivElement>(null);
  /** The operation opened from the journal and the entry it came from, while it is shown. */
  const [from, setFrom] = useState<{ label: string; id: number } | null>(null);
  useEffect(() => {
    if (!reveal || !doc) return;
    setFrom({ label: reveal.label, id: reveal.from });
    const el = [...(list.current?.querySelectorAll<HTMLDetailsElement>('details[data-op]') ?? [])].find((d) => d.dataset.op === reveal.label);
    if (!el) return setNote({ text: `${reveal.label} is not an operation of the document.`, error: true });
    el.open = true;
    el.scrollIntoView({ block: 'nearest' });
    el.querySelector('summary')?.focus();
  }, [reveal, doc]);
  const [session, setSession] = useState('');
  const [note, setNote] = useState<{ text: string; error: boolean } | null>(null);
  useEffect(() => {
    if (active && doc === null) getJson<Doc>(transport, `${ADMIN}/openapi`).then(setDoc, (e: Error) => setNote({ text: e.message, error: true }));
  }, [active, transport]);
  const [dynamic, setDynamic] = useState(false);
  const answer = async (op: Operation, code: string, name: string | undefined) => {
    if (!session) return setNote({ text: 'Name a session first: the answer is kept as that session\u2019s override.', error: true });
    const status = statusOf(code);
    const prefer = `code=${status}${name ? `, example=${name}` : ''}${dynamic ? ', dynamic=true' : ''}`;
    const override = { method: op.method, path: op.pattern, prefer };
    try {
      await readJson(await transport(`${ADMIN}/sessions/${encodeURIComponent(session)}/overrides`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(override) }));
      setNote({ text: `Session ${session}: ${op.label} answers ${status}${name ? ` (example ${name})` : ''} (Prefer: ${prefer}).`, error: false });
    } catch (e) {
      setNote({ text: (e as Error).message, error: true });
    }
  };
  return (
    <section class="tab openapi" hidden={!active} role="tabpanel" id="panel-openapi" aria-labelledby="tab-openapi">
      <div class="toolbar">
        <label>
          Session <input value={session} size={14} data-testid="openapi-session" onInput={(e) => setSession((e.target as HTMLInputElement).value.trim())} />
        </label>
        <label>
          <input type="checkbox" checked={dynamic} data-testid="openapi-dynamic" onChange={(e) => setDynamic((e.target as HTMLInputElement).checked)} /> fresh draw (dynamic)
        </label>
        {doc && <span class="count">{doc.title} · {doc.operations.length} operations</span>}
        {from && onBack && (
          <button type="button" class="link" data-testid="openapi-back" onClick={() => onBack(from.id)}>
            ← Back to request #{from.id}
          </button>
        )}
      </div>
      <p class={`note ${note?.error ? 'error' : 'dim'}`} role={note?.error ? 'alert' : 'status'} data-testid="openapi-note">
        {note?.text ?? '\u00a0'}
      </p>
      <div class="pane openapi-ops" ref={list}>
        {doc?.operations.map((op) => (
          <details data-op={op.label} class={from?.label === op.label ? 'from-journal' : undefined}>
            <summary class="mono">
              <span class="method">{op.method}</span> {op.template}
              {op.operationId ? <span class="dim"> · {op.operationId}</span> : null}
            </summary>
            <ul class="plain">
              {op.responses.map((r) => {
                const examples: Array<[string | undefined, Content, unknown]> = r.contents.flatMap((c) => [
                  ...(c.example !== undefined ? [[undefined, c, c.example] as [undefined, Content, unknown]] : []),
                  ...Object.entries(c.examples).map(([n, v]) => [n, c, v] as [string, Content, unknown]),
                ]);
                return (
                  <li>
                    <strong class="mono">{r.code}</strong> <span class="dim">{r.description}</span>
                    {examples.map(([name, c, value]) => (
                      <div class="example">
                        <pre class="body">{JSON.stringify(value, null, 2)}</pre>
                        <button type="button" aria-label={`Answer ${op.label} with ${r.code}${name ? ` ${name}` : ''}`} onClick={() => answer(op, r.code, name)}>
                          Answer with this{name ? ` (${name})` : ''}
                        </button>
                      </div>
                    ))}
                    {examples.length === 0 && (
                      <button type="button" aria-label={`Answer ${op.label} with ${r.code}`} onClick={() => answer(op, r.code, undefined)}>
                        Answer with this{r.contents.length > 0 ? ' (generated)' : ''}
                      </button>
                    )}
                  </li>
                );
              })}
            </ul>
          </details>
        ))}
      </div>
    </section>
  );
}
