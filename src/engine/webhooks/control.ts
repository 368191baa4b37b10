/**
 * What the webhooks surface gives the engine (`api.webhooks`, `req.app.webhook`) and its
 * assembly (the layer, closing): types only, so the engine's services can name it without
 * importing the surface (layer.ts builds it).
 */
import type { SignatureStyle } from '../../core/webhook-signature.js';
import type { Layer } from '../pipeline/layer.js';
import type { AttemptObserver } from './delivery.js';
import type { WebhookInit } from './options.js';

export interface DocumentWebhook {
  name: string;
  method: string;
  /** `x-mockyard-on`, when the document binds it to a request pattern. */
  on: string | null;
  /** A payload drawn for it (the example when the document gives one). */
  payload: unknown;
}

export interface WebhooksControl {
  /** Queues one delivery (the same queue, retries and journal rows as configured webhooks); its delivery id, or undefined when dropped. */
  send(url: string, init?: WebhookInit): string | undefined;
  /** The document's 3.1 `webhooks`, each with a payload drawn for it ([] without a document). */
  documentWebhooks(): Promise<DocumentWebhook[]>;
  /** Sends the document's webhook `name` to `url` (`body`: an edited payload; default a drawn one). */
  sendDocumentWebhook(name: string, options: { url: string; body?: unknown; method?: string; secret?: string; signature?: SignatureStyle }): Promise<string | undefined>;
  /** Every attempt of every delivery; returns the stop function. */
  observe(observer: AttemptObserver): () => void;
  /** Resolves once no delivery waits or is in flight. */
  settled(): Promise<void>;
  /** Deliveries waiting or in flight. */
  readonly pending: number;
  /**
   * Where the document's webhooks bound to requests (`x-mockyard-on`) are sent (an http(s) URL;
   * null: not sent). Set once (admin API, devtools, a test).
   */
  target: string | null;
}

export interface Webhooks {
  /** The layer (first in the list), or undefined when nothing fires on requests. */
  readonly layer: Layer | undefined;
  readonly control: WebhooksControl;
  close(): void;
}
