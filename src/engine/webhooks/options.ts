/**
 * The `webhooks` option (`mock.webhooks`): requests the mock API sends to the app after a write.
 *
 *   webhooks: [
 *     { on: 'POST /api/orders', url: 'http://127.0.0.1:3000/hooks' },          // a request pattern (2xx answers)
 *     { on: 'POST /api/orders 4xx', url: … },                                  // …with another status class (`*`: any)
 *     { on: 'orders.created', url: …, secret: 's3cret', signature: 'stripe' },  // a store change
 *   ]
 *
 * Each entry: `on` (required), `url` (text or a function of the cause, returning undefined to
 * skip), `method` (POST), `headers`, `body` (a value or a function of the cause; default: the
 * changed item, else the answer's body), `delay` (ms before the first attempt), `retry`
 * (`false`, a number of attempts, or `{ attempts, delays }`; default 5 attempts after 0.5, 1,
 * 2, 4 s), `secret` + `signature` (`'github'` default, `'stripe'`), `event` (the event name sent
 * in `X-Mockyard-Event`; default the `on` text). Validated at start-up: every mistake names
 * its option (`mock.webhooks[1].on`).
 */
import { isHeaderName } from '../../core/header-name.js';
import { check, describe, isPlainObject, OptionsError } from '../../core/options.js';
import { SIGNATURE_STYLES, type SignatureStyle } from '../../core/webhook-signature.js';
import type { StoreChange } from '../store-contract/contract.js';

export type { WebhookInit } from '../types.js';

/** What a webhook's `url` and `body` functions are given: the request and answer, or the store change, that caused it. */
export interface WebhookCause {
  /** `POST /api/orders` or `orders.created`. */
  event: string;
  /** A request pattern's cause: the request (its body already read: `body`). */
  request?: Request;
  /** The request's JSON body (or text), when it had one. */
  requestBody?: unknown;
  /** A request pattern's cause: the answer's status, headers and JSON body (or text). */
  response?: { status: number; headers: Headers; body: unknown };
  /** A store change's cause. */
  change?: StoreChange;
}

export type WebhookValue<T> = T | ((cause: WebhookCause) => T | Promise<T>);

export interface WebhookRetry {
  /** Attempts in all, the first included (default 5; 1 = no retry). */
  attempts?: number;
  /** Milliseconds before each retry (default [500, 1000, 2000, 4000]); the last one repeats. */
  delays?: number[];
}

export interface WebhookOption {
  on: string;
  url: WebhookValue<string | undefined>;
  method?: string;
  headers?: Record<string, string>;
  /** A JSON value, or a function of the cause returning one (default: the changed item, else the answer's body). */
  body?: string | number | boolean | null | object | ((cause: WebhookCause) => unknown);
  /** Milliseconds before the first attempt (default 0). */
  delay?: number;
  retry?: false | number | WebhookRetry;
  /** Signs the exact bytes sent (core/webhook-signature.ts). */
  secret?: string;
  /** `github` (default: X-Hub-Signature-256) or `stripe` (Stripe-Signature). */
  signature?: SignatureStyle;
  /** The event name sent as `X-Mockyard-Event` (default: the `on` text). */
  event?: string;
}

export type WebhookTrigger =
  | { type: 'request'; method: string; path: RegExp; status: number }
  | { type: 'change'; collection: string; change: 'created' | 'updated' | 'removed' | '*' };

export interface RetrySchedule {
  attempts: number;
  delays: readonly number[];
}

export interface ResolvedWebhook {
  /** `mock.webhooks[0]`: where it was configured. */
  at: string;
  on: string;
  trigger: WebhookTrigger;
  url: WebhookValue<string | undefined>;
  method: string;
  headers: Record<string, string>;
  body: WebhookValue<unknown> | undefined;
  delay: number;
  retry: RetrySchedule;
  secret: string | undefined;
  signature: SignatureStyle;
  event: string;
}

export const DEFAULT_RETRY: RetrySchedule = { attempts: 5, delays: [500, 1000, 2000, 4000] };

const KEYS = ['on', 'url', 'method', 'headers', 'body', 'delay', 'retry', 'secret', 'signature', 'event'] as const;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', '*'];
const CHANGES: Record<string, 'created' | 'updated' | 'removed' | '*'> = { created: 'created', updated: 'updated', deleted: 'removed', removed: 'removed', '*': '*' };

/** `/api/orders/:id`, `/api/orders/{id}`, `/api/*` → a regex over the URL path (`*` one segment, `**` the rest). */
export function pathPattern(path: string): RegExp {
  const parts = path
    .replace(/\/+$/, '')
    .split('/')
    .map((seg) => {
      if (seg === '**') return '.*';
      if (seg === '*' || /^:[A-Za-z_]\w*$/.test(seg) || /^\{[^}]+\}$/.test(seg)) return '[^/]+';
      return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    });
  return new RegExp(`^${parts.join('/')}/?$`);
}

/** `on`: `METHOD /path [status class]` or `collection.change`. */
export function parseTrigger(on: unknown, option: string): WebhookTrigger {
  if (typeof on !== 'string' || on.trim() === '') throw new OptionsError(option, `must be a request pattern such as "POST /api/orders" or a store change such as "orders.created" (got ${describe(on)})`);
  const words = on.trim().split(/\s+/);
  if (words.length >= 2) {
    const method = words[0]!.toUpperCase();
    if (!METHODS.includes(method)) throw new OptionsError(option, `names the method "${words[0]}": use one of ${METHODS.join(', ')}`);
    const path = words[1]!;
    if (!path.startsWith('/')) throw new OptionsError(option, `must give a path starting with "/" after the method (got ${describe(path)})`);
    let status = 2;
    if (words.length === 3) {
      const s = words[2]!.toLowerCase();
      if (s === '*') status = 0;
      else if (/^[1-5]xx$/.test(s)) status = Number(s[0]);
      else throw new OptionsError(option, `ends with "${words[2]}": the status class is 1xx … 5xx or * (any)`);
    } else if (words.length > 3) throw new OptionsError(option, `has too many words: "METHOD /path [2xx]" (got ${describe(on)})`);
    return { type: 'request', method, path: pathPattern(path), status };
  }
  const m = /^(.+)\.(created|updated|deleted|removed|\*)$/.exec(on.trim());
  if (!m) throw new OptionsError(option, `must be a request pattern such as "POST /api/orders" or a store change "<collection>.created|updated|deleted" (got ${describe(on)})`);
  return { type: 'change', collection: m[1]!, change: CHANGES[m[2]!]! };
}

/** `retry`: false, a number of attempts, or { attempts, delays }. */
export function resolveRetry(value: unknown, option: string): RetrySchedule {
  if (value === undefined) return DEFAULT_RETRY;
  if (value === false) return { attempts: 1, delays: [] };
  if (typeof value === 'number') return { attempts: check.number(value, option, 5, { min: 1, max: 100, integer: true }), delays: DEFAULT_RETRY.delays };
  if (!isPlainObject(value)) throw new OptionsError(option, `must be false, a number of attempts or { attempts, delays } (got ${describe(value)})`);
  check.knownKeys(value, option, ['attempts', 'delays']);
  const attempts = check.number(value.attempts, `${option}.attempts`, DEFAULT_RETRY.attempts, { min: 1, max: 100, integer: true });
  const delays = check.array<unknown>(value.delays, `${option}.delays`, [...DEFAULT_RETRY.delays]);
  delays.forEach((d, i) => check.number(d, `${option}.delays[${i}]`, 0, { min: 0, max: 24 * 3600 * 1000 }));
  if (attempts > 1 && delays.length === 0) throw new OptionsError(`${option}.delays`, 'must give at least one delay when attempts > 1');
  return { attempts, delays: delays as number[] };
}

function isValueOrFunction(v: unknown): boolean {
  return typeof v === 'function' || typeof v === 'string';
}

export function resolveWebhooksOption(value: unknown, option: string): ResolvedWebhook[] {
  if (value === undefined || value === null || value === false) return [];
  const list = check.array<unknown>(value, option);
  return list.map((entry, i) => {
    const at = `${option}[${i}]`;
    if (!isPlainObject(entry)) throw new OptionsError(at, `must be { on, url, … } (got ${describe(entry)})`);
    check.knownKeys(entry, at, KEYS);
    const trigger = parseTrigger(entry.on, `${at}.on`);
    if (!isValueOrFunction(entry.url)) throw new OptionsError(`${at}.url`, `must be an http(s) URL or a function returning one (got ${describe(entry.url)})`);
    if (typeof entry.url === 'string') {
      let ok = false;
      try {
        ok = /^https?:$/.test(new URL(entry.url).protocol);
      } catch {
        ok = false;
      }
      if (!ok) throw new OptionsError(`${at}.url`, `must be an absolute http(s) URL (got ${describe(entry.url)})`);
    }
    const method = check.string(entry.method, `${at}.method`, 'POST', { nonEmpty: true })!.toUpperCase();
    if (!/^[A-Z]+$/.test(method)) throw new OptionsError(`${at}.method`, `must be an HTTP method (got ${describe(entry.method)})`);
    const headers = check.object(entry.headers, `${at}.headers`) ?? {};
    for (const [k, v] of Object.entries(headers)) if (typeof v !== 'string' || !isHeaderName(k)) throw new OptionsError(`${at}.headers`, `must map header names to text values (got ${describe({ [k]: v })})`);
    const secret = check.string(entry.secret, `${at}.secret`, undefined, { nonEmpty: true });
    const signature = entry.signature === undefined ? 'github' : check.oneOf(entry.signature, `${at}.signature`, SIGNATURE_STYLES, 'github');
    if (entry.signature !== undefined && secret === undefined) throw new OptionsError(`${at}.signature`, 'needs a secret to sign with');
    return {
      at,
      on: String(entry.on).trim(),
      trigger,
      url: entry.url as WebhookValue<string | undefined>,
      method,
      headers: headers as Record<string, string>,
      body: entry.body as WebhookValue<unknown> | undefined,
      delay: check.number(entry.delay, `${at}.delay`, 0, { min: 0, max: 3600 * 1000 }),
      retry: resolveRetry(entry.retry, `${at}.retry`),
      secret,
      signature,
      event: check.string(entry.event, `${at}.event`, String(entry.on).trim(), { nonEmpty: true })!,
    };
  });
}
