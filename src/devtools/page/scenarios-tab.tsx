/**
 * Scenarios: the configured ones and the saved ones (made of route overrides in the Routes tab,
 * marked "saved", each with its overrides and Delete: DELETE scenarios/<name>), the current one,
 * and switching (`PUT scenario`).
 */
import { useEffect, useState } from 'preact/hooks';
import { ADMIN, getJson, readJson, type Transport } from './api.js';

interface ScenarioState {
  current: string | null;
  scenarios: string[];
  saved?: Record<string, Array<{ method?: string; path: string }>>;
}

export function ScenariosTab({ transport, active }: { transport: Transport; active: boolean }) {
  const [state, setState] = useState<ScenarioState | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!active) return;
    getJson<ScenarioState>(transport, `${ADMIN}/scenario`).then(setState, (e: Error) => setError(e.message));
  }, [active, transport]);
  const choose = async (name: string | null) => {
    try {
      const res = await transport(`${ADMIN}/scenario`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name }) });
      setState(await readJson<ScenarioState>(res));
      setError(null);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const drop = async (name: string) => {
    try {
      const res = await transport(`${ADMIN}/scenarios/${encodeURIComponent(name)}`, { method: 'DELETE' });
      if (!res.ok) await readJson(res);
      setState(await getJson<ScenarioState>(transport, `${ADMIN}/scenario`));
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const [resetNote, setResetNote] = useState<string | null>(null);
  const resetData = async () => {
    try {
      await readJson<{ reset: boolean }>(await transport(`${ADMIN}/reset`, { method: 'POST' }));
      setResetNote('Data reset to the seed files.');
      setError(null);
    } catch (e) {
      setResetNote(null);
      setError((e as Error).message);
    }
  };
  return (
    <section class="tab scenarios" hidden={!active} role="tabpanel" id="panel-scenarios" aria-labelledby="tab-scenarios">
      <p>
        <button type="button" data-testid="reset-data" onClick={resetData}>
          Reset data to the seed files
        </button>{' '}
        {resetNote && <span class="dim" role="status">{resetNote}</span>}
      </p>
      {error && <p class="error">{error}</p>}
      {state && (
        <>
          <p>
            Current: <strong data-testid="current-scenario">{state.current ?? 'base (no scenario)'}</strong>
          </p>
          <p class="dim">
            The choice applies to every request without a per-request choice (<code>X-Mockyard-Scenario</code> header or <code>?__scenario=</code>).
          </p>
          <ul class="scenario-list" role="radiogroup" aria-label="Scenario">
            {[null, ...state.scenarios].map((name) => (
              <li>
                <label>
                  <input type="radio" name="scenario" checked={state.current === name} onChange={() => choose(name)} />
                  <span class={name === null ? '' : 'mono'}>{name ?? 'base (no scenario)'}</span>
                </label>
                {name !== null && state.saved?.[name] && (
                  <>
                    {' '}
                    <span class="dim" data-testid="saved-scenario">
                      saved: {state.saved[name]!.length} override{state.saved[name]!.length === 1 ? '' : 's'}
                    </span>{' '}
                    <button type="button" aria-label={`Delete scenario ${name}`} onClick={() => drop(name)}>
                      Delete
                    </button>
                  </>
                )}
              </li>
            ))}
          </ul>
          {state.scenarios.length === 0 && <p class="dim">No scenarios are configured (mock option <code>scenarios</code>).</p>}
        </>
      )}
    </section>
  );
}
