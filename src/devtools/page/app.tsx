/** The devtools page: a header with the tabs, each tab a component (mounted once, kept alive). */
import { useEffect, useState } from 'preact/hooks';
import { ADMIN, getJson, type Transport } from './api.js';
import { EventsTab } from './events-tab.js';
import { RequestsTab } from './requests-tab.js';
import type { RoutesInfo } from './routes-tab.js';
import { RoutesTab } from './routes-tab.js';
import { ScenariosTab } from './scenarios-tab.js';
import { GraphqlTab } from './graphql-tab.js';
import { DataTab } from './data-tab.js';
import { SessionsTab } from './sessions-tab.js';
import { OpenApiTab } from './openapi-tab.js';
import { RecordTab } from './record-tab.js';
import { WebhooksTab } from './webhooks-tab.js';

export const TABS = ['requests', 'data', 'routes', 'sessions', 'scenarios', 'openapi', 'webhooks', 'record', 'graphql', 'events'] as const;
export type Tab = (typeof TABS)[number];
const LABELS: Record<Tab, string> = { requests: 'Requests', data: 'Data', routes: 'Routes', sessions: 'Sessions', openapi: 'OpenAPI', webhooks: 'Webhooks', record: 'Record', scenarios: 'Scenarios', graphql: 'GraphQL', events: 'Events' };

function tabFromHash(): Tab {
  const h = location.hash.replace(/^#\/?/, '');
  return (TABS as readonly string[]).includes(h) ? (h as Tab) : 'requests';
}

export interface AppProps {
  transport: Transport;
  /** Shown in the page host (the page is mounted over the app): closes it. */
  onClose?: () => void;
  /** Whether the tab follows `location.hash` (the standalone page does; the overlay does not). */
  routeByHash: boolean;
  /** The collector's base path when the host told it ('' none); else asked through `GET routes`. */
  collectorBase?: string;
}

export function App({ transport, onClose, routeByHash, collectorBase: known }: AppProps) {
  const [tab, setTab] = useState<Tab>(() => (routeByHash ? tabFromHash() : 'requests'));
  const [collectorBase, setCollectorBase] = useState<string | null | undefined>(known === undefined ? undefined : known || null);
  /** The mock API's GraphQL endpoint (null: GraphQL off), from `GET routes`. */
  const [graphql, setGraphql] = useState<string | null>(null);
  /** Whether the mock API serves an OpenAPI document (its `openapi` layer), from `GET routes`. */
  const [openapi, setOpenapi] = useState(false);
  /** Whether the mock API has a proxy (recording goes through it). */
  const [proxy, setProxy] = useState(false);
  useEffect(() => {
    if (!routeByHash) return;
    const onHash = () => setTab(tabFromHash());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, [routeByHash]);
  useEffect(() => {
    getJson<RoutesInfo>(transport, `${ADMIN}/routes`).then(
      (r) => {
        if (known === undefined) setCollectorBase(r.collector?.basePath ?? null);
        setGraphql(r.mock?.graphql ?? null);
        setOpenapi(r.mock?.layers?.includes('openapi') ?? false);
        setProxy(r.mock?.layers?.includes('proxy') ?? false);
      },
      () => {
        if (known === undefined) setCollectorBase(null);
      },
    );
  }, [transport, known]);
  const choose = (t: Tab) => {
    setTab(t);
    if (routeByHash) history.replaceState(null, '', `#${t}`);
  };
  /** A journal entry's OpenAPI operation, opened in the OpenAPI tab (`from`: the entry, for "back"). */
  const [operation, setOperation] = useState<{ label: string; from: number } | null>(null);
  /** The journal entry the OpenAPI tab's "back" returns to. */
  const [entry, setEntry] = useState<{ id: number } | null>(null);
  const openOperation = (label: string, from: number) => {
    setOperation({ label, from });
    choose('openapi');
  };
  const backToEntry = (id: number) => {
    setEntry({ id });
    choose('requests');
  };
  const shown = TABS.filter((t) => (t !== 'graphql' || graphql !== null) && (t !== 'openapi' || openapi) && (t !== 'webhooks' || openapi) && (t !== 'record' || proxy));
  /**
   * The tab strip is one stop of the Tab key (WAI-ARIA tabs: only the chosen tab is tabbable);
   * Left/Right move to the previous/next tab (wrapping), Home/End to the first/last, and choose it.
   */
  const onTabKey = (e: KeyboardEvent) => {
    const at = shown.indexOf(tab);
    const next = e.key === 'ArrowRight' ? shown[(at + 1) % shown.length] : e.key === 'ArrowLeft' ? shown[(at - 1 + shown.length) % shown.length] : e.key === 'Home' ? shown[0] : e.key === 'End' ? shown[shown.length - 1] : undefined;
    if (next === undefined) return;
    e.preventDefault();
    choose(next);
    ((e.currentTarget as HTMLElement).querySelector(`[data-tab="${next}"]`) as HTMLElement | null)?.focus();
  };
  return (
    <div class="devtools">
      <header class="top-bar">
        <h1>
          mockyard <span class="dim">devtools</span>
        </h1>
        <nav role="tablist" aria-label="Devtools" onKeyDown={onTabKey}>
          {shown.map((t) => (
            <button type="button" role="tab" id={`tab-${t}`} aria-controls={`panel-${t}`} aria-selected={tab === t} tabIndex={tab === t || (!shown.includes(tab) && t === shown[0]) ? 0 : -1} data-tab={t} onClick={() => choose(t)}>
              {LABELS[t]}
            </button>
          ))}
        </nav>
        {onClose && (
          <button type="button" class="close" aria-label="Close devtools" onClick={onClose}>
            ×
          </button>
        )}
      </header>
      <main>
        <RequestsTab transport={transport} active={tab === 'requests'} onOperation={openapi ? openOperation : undefined} reveal={entry} />
        <DataTab transport={transport} active={tab === 'data'} />
        <RoutesTab transport={transport} active={tab === 'routes'} />
        <SessionsTab transport={transport} active={tab === 'sessions'} />
        <ScenariosTab transport={transport} active={tab === 'scenarios'} />
        {openapi && <OpenApiTab transport={transport} active={tab === 'openapi'} reveal={operation} onBack={backToEntry} />}
        {openapi && <WebhooksTab transport={transport} active={tab === 'webhooks'} />}
        {proxy && <RecordTab transport={transport} active={tab === 'record'} />}
        {graphql !== null && <GraphqlTab transport={transport} active={tab === 'graphql'} endpoint={graphql} />}
        {collectorBase !== undefined && <EventsTab transport={transport} active={tab === 'events'} basePath={collectorBase} />}
      </main>
    </div>
  );
}
