/**
 * Sessions: the live sessions (GET sessions) with their scenario, overrides and data changes;
 * one inspected (its overrides and its last requests), reset (POST sessions/<id>/reset) or
 * deleted (DELETE sessions/<id>). Each a button, reachable by Tab; focus stays on the list
 * after an action.
 */
import { useEffect, useState } from 'preact/hooks';
import type { JournalEntry } from '../journal.js';
import { ADMIN, getJson, readJson, type Transport } from './api.js';
import { clockTime } from './pretty.js';
import { describeOverride } from './route-editor.js';

interface Session {
  id: string;
  created: number;
  lastUsed: number;
  scenario: string | null;
  overrides: Array<{ method?: string; path: string; status?: number; delay?: unknown; errorRate?: number; fault?: unknown; body?: unknown }>;
  changes: number;
  files: number;
}

export function SessionsTab({ transport, active }: { transport: Transport; active: boolean }) {
  const [sessions, setSessions] = useState<Session[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const [requests, setRequests] = useState<JournalEntry[]>([]);
  const [note, setNote] = useState<{ text: string; error: boolean } | null>(null);
  const load = async () => {
    try {
      setSessions((await getJson<{ sessions: Session[] }>(transport, `${ADMIN}/sessions`)).sessions);
    } catch (e) {
      setNote({ text: (e as Error).message, error: true });
    }
  };
  useEffect(() => {
    if (active) void load();
  }, [active, transport]);
  useEffect(() => {
    if (!active || selected === null) return setRequests([]);
    getJson<{ entries: JournalEntry[] }>(transport, `${ADMIN}/sessions/${encodeURIComponent(selected)}/requests?limit=20`).then(
      (r) => setRequests(r.entries),
      () => setRequests([]),
    );
  }, [active, selected, sessions]);
  const act = async (id: string, what: 'reset' | 'delete') => {
    try {
      const url = `${ADMIN}/sessions/${encodeURIComponent(id)}${what === 'reset' ? '/reset' : ''}`;
      const res = await transport(url, { method: what === 'reset' ? 'POST' : 'DELETE' });
      if (res.status !== 204) await readJson(res);
      setNote({ text: what === 'reset' ? `Session ${id} reset: its data, overrides and scenario dropped.` : `Session ${id} deleted.`, error: false });
      if (what === 'delete' && selected === id) setSelected(null);
      await load();
    } catch (e) {
      setNote({ text: (e as Error).message, error: true });
    }
  };
  const current = sessions.find((s) => s.id === selected);
  return (
    <section class="tab sessions" hidden={!active} role="tabpanel" id="panel-sessions" aria-labelledby="tab-sessions">
      <div class="toolbar">
        <button type="button" onClick={load}>
          Reload
        </button>
        <span class="count">{sessions.length} live</span>
      </div>
      <p class={`note ${note?.error ? 'error' : 'dim'}`} role={note?.error ? 'alert' : 'status'} data-testid="sessions-note">
        {note?.text ?? '\u00a0'}
      </p>
      <div class="split">
        <div class="pane">
          {sessions.length === 0 ? (
            <p class="dim">No sessions. A request with X-Mockyard-Session (header, cookie or ?__session=) makes one.</p>
          ) : (
            <table class="items" data-testid="sessions-table">
              <thead>
                <tr>
                  <th>session</th>
                  <th>scenario</th>
                  <th class="num">overrides</th>
                  <th class="num">changes</th>
                  <th>last used</th>
                  <th>
                    <span class="sr">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {sessions.map((s) => (
                  <tr data-id={s.id} class={s.id === selected ? 'sel' : ''}>
                    <td class="mono">
                      <button type="button" class="link mono" aria-pressed={s.id === selected} onClick={() => setSelected(s.id)}>
                        {s.id}
                      </button>
                    </td>
                    <td class="mono">{s.scenario ?? '—'}</td>
                    <td class="num">{s.overrides.length}</td>
                    <td class="num">{s.changes}</td>
                    <td class="mono">{clockTime(s.lastUsed)}</td>
                    <td class="row-actions">
                      <button type="button" aria-label={`Reset ${s.id}`} onClick={() => act(s.id, 'reset')}>
                        Reset
                      </button>
                      <button type="button" aria-label={`Delete ${s.id}`} onClick={() => act(s.id, 'delete')}>
                        Delete
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
        <div class="pane" aria-label="Session detail" data-testid="session-detail">
          {current ? (
            <>
              <h2 class="mono">{current.id}</h2>
              <p class="dim">
                {current.changes} data changes in {current.files} files · scenario {current.scenario ?? 'none'} · created {clockTime(current.created)}
              </p>
              <h3>Overrides</h3>
              {current.overrides.length === 0 ? (
                <p class="dim">None.</p>
              ) : (
                <ul class="plain">
                  {current.overrides.map((o) => (
                    <li class="mono">{describeOverride(o)}</li>
                  ))}
                </ul>
              )}
              <h3>Last requests</h3>
              {requests.length === 0 ? (
                <p class="dim">None in the journal.</p>
              ) : (
                <ul class="plain">
                  {requests.map((r) => (
                    <li class="mono">
                      {r.method} {r.url} <span class={`st-${Math.floor((r.status ?? 0) / 100)}xx`}>{r.status ?? '→'}</span>
                    </li>
                  ))}
                </ul>
              )}
            </>
          ) : (
            <p class="dim">Choose a session to inspect it.</p>
          )}
        </div>
      </div>
    </section>
  );
}
