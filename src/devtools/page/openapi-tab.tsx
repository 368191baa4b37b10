/**
 * OpenAPI: the document's operations (GET openapi) with their documented responses and
 * examples; "Answer with this" keeps that response as a session override (POST
 * sessions/<id>/overrides: the operation's method and path pattern, the status, the example as
 * the body with its media type), so the requests of that session get it, undone in the Routes or
 * Sessions tab. A response documented without an example can be chosen when it is an error (the
 * JSON error body with its status).
 */
import { useEffect, useState } from 'preact/hooks';
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

export function OpenApiTab({ transport, active }: { transport: Transport; active: boolean }) {
  const [doc, setDoc] = useState<Doc | null>(null);
  const [session, setSession] = useState('');
  const [note, setNote] = useState<{ text: string; error: boolean } | null>(null);
  useEffect(() => {
    if (active && doc === null) getJson<Doc>(transport, `${ADMIN}/openapi`).then(setDoc, (e: Error) => setNote({ text: e.message, error: true }));
  }, [active, transport]);
  const answer = async (op: Operation, code: string, content: Content | undefined, name: string | undefined, value: unknown) => {
    if (!session) return setNote({ text: 'Name a session first: the answer is kept as that session\u2019s override.', error: true });
    const status = statusOf(code);
    const override: Record<string, unknown> = { method: op.method, path: op.pattern };
    if (content) Object.assign(override, { status, body: value, headers: { 'Content-Type': content.type } });
    else Object.assign(override, status >= 400 ? { status, errorRate: 1 } : { status });
    try {
      await readJson(await transport(`${ADMIN}/sessions/${encodeURIComponent(session)}/overrides`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(override) }));
      setNote({ text: `Session ${session}: ${op.label} answers ${status}${name ? ` (example ${name})` : ''}.`, error: false });
    } catch (e) {
      setNote({ text: (e as Error).message, error: true });
    }
  };
  return (
    <section class="tab openapi" hidden={!active} aria-label="OpenAPI">
      <div class="toolbar">
        <label>
          Session <input value={session} size={14} data-testid="openapi-session" onInput={(e) => setSession((e.target as HTMLInputElement).value.trim())} />
        </label>
        {doc && <span class="count">{doc.title} · {doc.operations.length} operations</span>}
      </div>
      <p class={`note ${note?.error ? 'error' : 'dim'}`} role={note?.error ? 'alert' : 'status'} data-testid="openapi-note">
        {note?.text ?? '\u00a0'}
      </p>
      <div class="pane openapi-ops">
        {doc?.operations.map((op) => (
          <details data-op={op.label}>
            <summary class="mono">
              <span class="method">{op.method}</span> {op.template}
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
                        <button type="button" aria-label={`Answer ${op.label} with ${r.code}${name ? ` ${name}` : ''}`} onClick={() => answer(op, r.code, c, name, value)}>
                          Answer with this{name ? ` (${name})` : ''}
                        </button>
                      </div>
                    ))}
                    {examples.length === 0 && statusOf(r.code) >= 400 && (
                      <button type="button" aria-label={`Answer ${op.label} with ${r.code}`} onClick={() => answer(op, r.code, undefined, undefined, undefined)}>
                        Answer with this
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
