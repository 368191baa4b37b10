/**
 * A singular object of the mocks folder (config.json: `{ "theme": "dark", "beta": true }`) as a
 * form: a field per top-level key (text, number, a checkbox for a boolean, JSON for the rest),
 * saved through the admin API's files route with If-Match (with a session chosen, into that
 * session's own data: `files/config.json?session=`, the shared file untouched), so an edit made on disk or in another
 * tab meanwhile is reported (412) and the form keeps what was typed.
 */
import { useEffect, useState } from 'preact/hooks';
import { ADMIN, readJson, type Transport } from './api.js';

type Fields = Record<string, string | boolean>;

function toFields(value: Record<string, unknown>): Fields {
  const out: Fields = {};
  for (const [k, v] of Object.entries(value)) out[k] = typeof v === 'boolean' ? v : typeof v === 'string' ? v : JSON.stringify(v);
  return out;
}

/**
 * `db`: with `mock.db` (a db.json), the file whose key the object is; the notes name the object
 * as held there (`profile in db.json`), since there is no `profile.json` (the files route maps it).
 */
export function ObjectForm({ transport, name, session, db }: { transport: Transport; name: string; session: string | null; db?: string }) {
  const where = db === undefined ? `${name}.json` : `${name} in ${db}`;
  const url = `${ADMIN}/files/${name.split('/').map(encodeURIComponent).join('/')}.json${session === null ? '' : `?session=${encodeURIComponent(session)}`}`;
  const [original, setOriginal] = useState<Record<string, unknown> | null>(null);
  const [fields, setFields] = useState<Fields>({});
  const [etag, setEtag] = useState<string | null>(null);
  const [note, setNote] = useState<{ text: string; error: boolean } | null>(null);
  const load = async () => {
    const res = await transport(url);
    if (!res.ok) return setNote({ text: `${res.status}: could not read ${where}`, error: true });
    setEtag(res.headers.get('etag'));
    const value = JSON.parse(await res.text()) as Record<string, unknown>;
    setOriginal(value);
    setFields(toFields(value));
  };
  useEffect(() => {
    setNote(null);
    void load();
  }, [name, session]);
  const save = async (e: Event) => {
    e.preventDefault();
    if (!original) return;
    const value: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(fields)) {
      const before = original[k];
      if (typeof v === 'boolean' || typeof before === 'string') value[k] = v;
      else {
        try {
          value[k] = JSON.parse(v);
        } catch {
          return setNote({ text: `Not saved: ${k} must be JSON (${typeof before === 'number' ? 'a number' : 'a JSON value'})`, error: true });
        }
      }
    }
    const res = await transport(url, { method: 'PUT', headers: { 'Content-Type': 'application/json', 'If-Match': etag ?? '*' }, body: JSON.stringify(value, null, 2) });
    if (res.status === 412) return setNote({ text: `Not saved: ${where} was changed since you opened it (on disk or in another tab). Your edits are kept; Reload shows the current file.`, error: true });
    try {
      await readJson(res);
    } catch (err) {
      return setNote({ text: (err as Error).message, error: true });
    }
    setEtag(res.headers.get('etag'));
    setOriginal(value);
    setNote({ text: session === null ? `Saved ${where}.` : db === undefined ? `Saved ${name}.json in session ${session} (the shared file is unchanged).` : `Saved ${name} in session ${session} (${db} is unchanged).`, error: false });
  };
  return (
    <form class="object-form" aria-label={session === null ? `${name} (object)` : `${name} (object, session ${session})`} onSubmit={save} data-testid="object-form">
      <p class={`note ${note?.error ? 'error' : 'dim'}`} role={note?.error ? 'alert' : 'status'} data-testid="object-note">
        {note?.text ?? '\u00a0'}
      </p>
      {Object.entries(fields).map(([k, v]) => (
        <label class="field">
          <span class="mono">{k}</span>
          {typeof v === 'boolean' ? (
            <input type="checkbox" checked={v} onChange={(e) => setFields({ ...fields, [k]: (e.target as HTMLInputElement).checked })} />
          ) : (
            <input class="mono" value={v} onInput={(e) => setFields({ ...fields, [k]: (e.target as HTMLInputElement).value })} />
          )}
        </label>
      ))}
      <div class="toolbar">
        <button type="submit">Save</button>
        <button type="button" onClick={() => (setNote(null), void load())}>
          Reload
        </button>
      </div>
    </form>
  );
}
