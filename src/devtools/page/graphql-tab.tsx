/** GraphQL: a small query box for the mock API's GraphQL endpoint (mock option `graphql`). */
import { useState } from 'preact/hooks';
import type { Transport } from './api.js';

const EXAMPLE = '{\n  __schema {\n    queryType { fields { name } }\n  }\n}';

export function GraphqlTab({ transport, active, endpoint }: { transport: Transport; active: boolean; endpoint: string }) {
  const [query, setQuery] = useState(EXAMPLE);
  const [variables, setVariables] = useState('');
  const [answer, setAnswer] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const run = async () => {
    setRunning(true);
    try {
      let vars: unknown;
      if (variables.trim() !== '') vars = JSON.parse(variables);
      const res = await transport(endpoint, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify({ query, variables: vars }) });
      const text = await res.text();
      let shown = text;
      try {
        shown = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        // shown as received
      }
      setAnswer(`${res.status}\n${shown}`);
    } catch (e) {
      setAnswer(`error: ${(e as Error).message}`);
    } finally {
      setRunning(false);
    }
  };
  return (
    <section class="tab graphql" hidden={!active} role="tabpanel" id="panel-graphql" aria-labelledby="tab-graphql">
      <p class="dim">
        <code>POST {endpoint}</code> — requests show in the Requests tab by operation name.
      </p>
      <label>
        Query
        <textarea class="mono" rows={10} spellcheck={false} data-testid="graphql-query" value={query} onInput={(e) => setQuery((e.target as HTMLTextAreaElement).value)} />
      </label>
      <label>
        Variables (JSON)
        <textarea class="mono" rows={3} spellcheck={false} data-testid="graphql-variables" value={variables} onInput={(e) => setVariables((e.target as HTMLTextAreaElement).value)} />
      </label>
      <p>
        <button type="button" data-testid="graphql-run" disabled={running} onClick={run}>
          Run
        </button>
      </p>
      {answer !== null && <pre class="mono" data-testid="graphql-answer">{answer}</pre>}
    </section>
  );
}
