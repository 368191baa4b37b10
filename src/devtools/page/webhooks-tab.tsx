/**
 * Webhooks: the OpenAPI document's 3.1 `webhooks` (GET webhooks), each with its generated payload
 * in an editable text box, a target URL (PUT webhooks/target, kept by the engine) and a "Send"
 * button (POST webhooks/send → 202; the delivery then shows in the Requests tab as an outgoing row).
 */
import { useEffect, useState } from 'preact/hooks';
import { ADMIN, getJson, readJson, type Transport } from './api.js';

interface WebhooksState {
  target: string | null;
  pending: number;
  document: Array<{ name: string; method: string; on: string | null; payload: unknown }>;
}

const json = (body: unknown): RequestInit => ({ headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

export function WebhooksTab({ transport, active }: { transport: Transport; active: boolean }) {
  const [state, setState] = useState<WebhooksState | null>(null);
  const [target, setTarget] = useState('');
  const [payloads, setPayloads] = useState<Record<string, string>>({});
  const [note, setNote] = useState<{ text: string; error: boolean } | null>(null);
  useEffect(() => {
    if (!active || state) return;
    getJson<WebhooksState>(transport, `${ADMIN}/webhooks`).then(
      (s) => {
        setState(s);
        setTarget(s.target ?? '');
        setPayloads(Object.fromEntries(s.document.map((w) => [`${w.name} ${w.method}`, JSON.stringify(w.payload ?? null, null, 2)])));
      },
      (e: Error) => setNote({ text: e.message, error: true }),
    );
  }, [active, transport]);
  const send = async (name: string, method: string) => {
    try {
      let body: unknown;
      try {
        body = JSON.parse(payloads[`${name} ${method}`] ?? 'null');
      } catch {
        throw new Error(`The payload of ${name} is not valid JSON`);
      }
      const url = target.trim();
      if (url !== (state?.target ?? '')) await readJson(await transport(`${ADMIN}/webhooks/target`, { method: 'PUT', ...json({ url: url || null }) }));
      const sent = await readJson<{ deliveryId: string }>(await transport(`${ADMIN}/webhooks/send`, { method: 'POST', ...json({ name, method, body }) }));
      setState((s) => (s ? { ...s, target: url || null } : s));
      setNote({ text: `${method} ${name} queued to ${url} (delivery ${sent.deliveryId}): see the Requests tab.`, error: false });
    } catch (e) {
      setNote({ text: (e as Error).message, error: true });
    }
  };
  return (
    <section class="tab webhooks" hidden={!active} role="tabpanel" id="panel-webhooks" aria-labelledby="tab-webhooks">
      <div class="toolbar">
        <label>
          Target URL{' '}
          <input type="url" data-testid="webhooks-target" placeholder="http://127.0.0.1:3000/hooks" value={target} onInput={(e) => setTarget((e.target as HTMLInputElement).value)} />
        </label>
      </div>
      <p class={`note ${note?.error ? 'error' : 'dim'}`} role={note?.error ? 'alert' : 'status'} data-testid="webhooks-note">
        {note?.text ?? '\u00a0'}
      </p>
      {state && state.document.length === 0 && <p class="dim">The OpenAPI document has no 3.1 `webhooks`.</p>}
      <ul class="plain" data-testid="webhooks-list">
        {state?.document.map((w) => (
          <li data-webhook={`${w.method} ${w.name}`}>
            <h2 class="mono">
              <span class="method">{w.method}</span> {w.name} {w.on && <span class="dim">after {w.on}</span>}
            </h2>
            <textarea class="mono" rows={8} aria-label={`${w.name} payload`} value={payloads[`${w.name} ${w.method}`] ?? ''} onInput={(e) => setPayloads((p) => ({ ...p, [`${w.name} ${w.method}`]: (e.target as HTMLTextAreaElement).value }))} />
            <button type="button" data-testid={`send-${w.method}-${w.name}`} disabled={!target.trim()} onClick={() => void send(w.name, w.method)}>
              Send
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
