/**
 * The scenario picked in this tab (the devtools overlay's Scenarios tab, `worker.mock.useScenario`)
 * survives a reload: the page host keeps it in the tab's sessionStorage and picks it again when
 * the worker starts. The node host keeps its scenario in the server process; the page's engines
 * start afresh with every page load, hence this. Another tab starts from the base.
 */
import type { MockApi } from '../engine/create-mock-api.js';

const KEY = 'mockyard-scenario';

function storage(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined; // storage disabled (sandboxed frame, privacy settings)
  }
}

/** Picks the remembered scenario again and remembers every later switch; `forget()` drops it (worker.reset()). */
export function rememberScenario(api: MockApi): { forget(): void } {
  const store = storage();
  if (!store) return { forget() {} };
  const saved = store.getItem(KEY);
  if (saved !== null && api.scenarios.includes(saved)) api.useScenario(saved);
  else if (saved !== null) store.removeItem(KEY); // no longer configured
  const use = api.useScenario.bind(api);
  api.useScenario = (name) => {
    use(name);
    if (name === null) store.removeItem(KEY);
    else store.setItem(KEY, name);
  };
  return { forget: () => store.removeItem(KEY) };
}
