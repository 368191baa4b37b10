/**
 * Record: recording through the proxy, switched from the page (PUT record), and what was
 * recorded (GET record: the HAR log's entries). What is recorded is written into the mocks folder
 * as `proxy.record` writes it and served from there; *Replay* sends a recorded GET again through
 * the mock API and shows the answer it gets now (the recording, once recording has stopped).
 * *Download HAR* saves the recording as a HAR 1.2 file (GET record/har), for `mockyard --har`.
 */
import { useEffect, useState } from 'preact/hooks';
import { ADMIN, download, getJson, readJson, type Transport } from './api.js';
import { prettyBody } from './pretty.js';

interface RecordState {
  target: string | null;
  recording: boolean;
  entries: Array<{ method: string; url: string; path: string; status: number; time: number; startedDateTime: string }>;
}

export function RecordTab({ transport, active }: { transport: Transport; active: boolean }) {
  const [state, setState] = useState<RecordState | null>(null);
  const [note, setNote] = useState<{ text: string; error: boolean } | null>(null);
  const [replayed, setReplayed] = useState<{ path: string; status: number; text: string; type: string } | null>(null);
  const load = () => getJson<RecordState>(transport, `${ADMIN}/record`).then(setState, (e: Error) => setNote({ text: e.message, error: true }));
  useEffect(() => {
    if (!active) return;
    void load();
    const t = setInterval(() => void load(), 2000);
    return () => clearInterval(t);
  }, [active, transport]);
  const toggle = async () => {
    try {
      const next = await readJson<RecordState>(await transport(`${ADMIN}/record`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ recording: !state?.recording }) }));
      setState(next);
      setNote({ text: next.recording ? `Recording ${next.target}: every proxied answer is kept in the mocks folder.` : 'Recording stopped: what was recorded is served from the mocks folder.', error: false });
    } catch (e) {
      setNote({ text: (e as Error).message, error: true });
    }
  };
  const replay = async (path: string) => {
    const res = await transport(path, { headers: { Accept: 'application/json' } });
    const type = res.headers.get('content-type') ?? '';
    setReplayed({ path, status: res.status, type, text: await res.text() });
  };
  return (
    <section class="tab record" hidden={!active} role="tabpanel" id="panel-record" aria-labelledby="tab-record">
      <div class="toolbar">
        <button type="button" aria-pressed={state?.recording ?? false} data-testid="record-toggle" disabled={!state?.target} onClick={toggle}>
          {state?.recording ? 'Stop recording' : 'Start recording'}
        </button>
        <span class="dim">{state?.target ? `through the proxy to ${state.target}` : 'No proxy target (mock.proxy): nothing to record.'}</span>
        <button type="button" data-testid="record-har" disabled={!state?.entries.length} onClick={() => download(transport(`${ADMIN}/record/har`), 'recording.har').catch((e: Error) => setNote({ text: e.message, error: true }))}>
          Download HAR
        </button>
        {state?.recording && <span class="live-dot live">recording</span>}
      </div>
      <p class={`note ${note?.error ? 'error' : 'dim'}`} role={note?.error ? 'alert' : 'status'} data-testid="record-note">
        {note?.text ?? '\u00a0'}
      </p>
      <div class="split">
        <div class="pane">
          <h2>Recorded ({state?.entries.length ?? 0})</h2>
          <ul class="plain" data-testid="record-entries">
            {state?.entries.map((e) => (
              <li class="mono">
                <span class="method">{e.method}</span> {e.path} <span class={`st-${Math.floor(e.status / 100)}xx`}>{e.status}</span>{' '}
                {e.method === 'GET' && (
                  <button type="button" aria-label={`Replay GET ${e.path}`} onClick={() => void replay(e.path)}>
                    Replay
                  </button>
                )}
              </li>
            ))}
          </ul>
        </div>
        <div class="pane" aria-label="Replayed answer" data-testid="record-replayed">
          {replayed ? (
            <>
              <h2 class="mono">
                GET {replayed.path} → <span class={`st-${Math.floor(replayed.status / 100)}xx`}>{replayed.status}</span>
              </h2>
              <pre class="body">{prettyBody(replayed.text, replayed.type)}</pre>
            </>
          ) : (
            <p class="dim">Replay a recorded GET to see what the mock answers now.</p>
          )}
        </div>
      </div>
    </section>
  );
}
