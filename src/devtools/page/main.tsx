/**
 * Entry of the devtools page bundle. `mount(root, options)` renders the page into `root` and
 * returns an unmount function. Loaded as the script of the page at `/_mockyard/` (the document says
 * `data-mockyard-devtools="page"`), it mounts itself on `#app` with the browser's fetch.
 * Every string from a request or an event reaches the DOM as a text node (Preact children and
 * attributes): nothing here sets HTML.
 */
import { render } from 'preact';
import { App } from './app.js';
import { httpTransport, type Transport } from './api.js';
import './style.css';

export interface MountOptions {
  transport?: Transport;
  onClose?: () => void;
  /** The collector's base path ('' none), when the host knows it. */
  collectorBase?: string;
}

export function mount(root: Element, options: MountOptions = {}): () => void {
  performance.mark('mockyard:page:mount');
  render(<App transport={options.transport ?? httpTransport()} onClose={options.onClose} routeByHash={!options.transport} collectorBase={options.collectorBase} />, root);
  performance.mark('mockyard:page:mounted');
  return () => render(null, root);
}

if (typeof document !== 'undefined' && document.documentElement.dataset.mockyardDevtools === 'page') {
  const root = document.getElementById('app');
  if (root) mount(root, { collectorBase: document.documentElement.dataset.collector });
}
