/**
 * The webhooks surface of the mock API (`mock.webhooks`, OpenAPI `callbacks` / `webhooks`,
 * `req.app.webhook`, docs/webhooks.md): what makes the mock call the app back.
 *
 *   createWebhooks(options, services) → { layer, control }
 *     layer    only when something can fire on a request (a `mock.webhooks` request pattern,
 *              an OpenAPI document): first in the list (layers.ts), it wraps the answer
 *              of everything after it (`around`) and, after a matching answer, queues the
 *              deliveries — the answer is returned at once, untouched. Its `peek` says PASS for
 *              every request no pattern or callback names, so other requests keep the fast path.
 *              Store-change triggers (`orders.created|updated|deleted`) listen to the collection
 *              store's change feed (`store.subscribe`): REST, GraphQL, handlers and files edited
 *              on disk all fire them.
 *     control  `api.webhooks` / `req.app.webhook(url, init)`: send one now, the document's
 *              webhooks (list with a drawn payload; send one to a URL), observe every attempt
 *              (the devtools journal's outgoing rows), wait until all are settled.
 * Nothing is built without `mock.webhooks` or `openapi` (no layer, no feed listener); the
 * delivery queue (delivery.ts) is made on the first send.
 * Order: first in every pipeline (layers.ts), before api.use's overrides: it must see the answer
 *   of every layer after it, whichever answers, to fire the deliveries after it.
 */
import { bufferedBody, kBodyBytes, readBody } from '../../core/body.js';
import { fastBodyBytes, fastState } from '../../core/fast-response.js';
import { parseMediaType } from '../../core/media-type.js';
import { HttpError } from '../../core/errors.js';
import type { RequestContext } from '../context.js';
import { PASS, type Layer } from '../pipeline/layer.js';
import type { EngineServices } from '../services.js';
import type { StoreChange } from '../store-contract/contract.js';
import { markCause } from './cause.js';
import type { Webhooks, WebhooksControl } from './control.js';
import { fetchSend, WebhookDelivery, answerText, type AttemptObserver, type WebhookSend } from './delivery.js';
import type { DocumentHooks, DocumentRequest, WebhookDocument } from './document-hooks.js';
import { DEFAULT_RETRY, parseTrigger, resolveRetry, type ResolvedWebhook, type WebhookCause, type WebhookTrigger } from './options.js';
import { expand, type ExpressionScope } from './runtime-expression.js';
import { SIGNATURE_STYLES } from '../../core/webhook-signature.js';
import { check } from '../../core/options.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function parseBody(bytes: Uint8Array | null | undefined, contentType: string | null): unknown {
  if (!bytes || bytes.byteLength === 0) return undefined;
  const text = decoder.decode(bytes);
  if (contentType !== null && !/json/i.test(parseMediaType(contentType).type)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function bodyBytes(body: unknown): Uint8Array | null {
  if (body === undefined || body === null) return null;
  if (body instanceof Uint8Array) return body;
  if (typeof body === 'string') return encoder.encode(body);
  return encoder.encode(JSON.stringify(body));
}

function matchesTrigger(t: WebhookTrigger & { type: 'request' }, method: string, pathname: string): boolean {
  return (t.method === '*' || t.method === method) && t.path.test(pathname);
}

function statusFits(t: WebhookTrigger & { type: 'request' }, status: number): boolean {
  return t.status === 0 || Math.floor(status / 100) === t.status;
}

/** A document webhook bound to requests (`x-mockyard-on`). */
interface BoundDocumentWebhook {
  request: DocumentRequest;
  trigger: WebhookTrigger & { type: 'request' };
}

/** How an attempt reaches the receiver: the runtime's transport (Node: undici), else fetch. */
function sendOf(services: EngineServices): WebhookSend {
  const factory = services.runtime.upstream;
  if (!factory) return fetchSend;
  let transport: ReturnType<typeof factory> | undefined;
  return async ({ url, method, headers, body, timeout, signal }) => {
    transport ??= factory();
    const answer = await transport.send({
      url,
      method,
      headers,
      body,
      timeout,
      watchClient: (onGone) => {
        signal.addEventListener('abort', onGone, { once: true });
        return () => signal.removeEventListener('abort', onGone);
      },
    });
    return { status: answer.status, text: await answerText(answer.respond([], true).body) };
  };
}

export interface WebhooksSources {
  /** The resolved `webhooks` option (options.ts). */
  rules: readonly ResolvedWebhook[];
  /** With `openapi`: the document (the assembly hands it over, loaded once for every layer), else null. */
  document: (() => Promise<WebhookDocument>) | null;
  /** `bodyLimit`: the most of a request body read for `$request.body` expressions. */
  bodyLimit: number;
  /**
   * `openapi.validateResponses` ('log': a document payload that breaks its schema is logged and
   * sent) or `strictResponses` ('strict': it is not sent); 'off' otherwise.
   */
  contract: 'off' | 'log' | 'strict';
}

export function createWebhooks(sources: WebhooksSources, services: EngineServices): Webhooks {
  const { logger } = services;
  const { rules, document, bodyLimit, contract } = sources;
  const requestRules = rules.filter((r) => r.trigger.type === 'request');
  const changeRules = rules.filter((r) => r.trigger.type === 'change');
  let delivery: WebhookDelivery | undefined;
  const observers = new Set<AttemptObserver>();
  let causes = 0;
  const nextCause = () => ++causes;
  const deliveryOf = (): WebhookDelivery => {
    if (!delivery) {
      delivery = new WebhookDelivery(sendOf(services), logger);
      for (const o of observers) delivery.observe(o);
    }
    return delivery;
  };

  // The document's callbacks and webhooks (document-hooks.ts, with the schema generator: loaded
  // on demand, its own chunk), when there is a document.
  let hooks: DocumentHooks | null | undefined = document ? undefined : null;
  let bound: BoundDocumentWebhook[] = [];
  const hooksReady: Promise<DocumentHooks | null> = document
    ? import('./document-hooks.js')
        .then((m) => m.loadDocumentHooks(document, logger))
        .then(
          (h) => {
            hooks = h;
            bound = h.webhooks.flatMap((request) => {
              if (request.on === undefined) return [];
              try {
                const trigger = parseTrigger(request.on, `webhooks.${request.name}.x-mockyard-on`);
                if (trigger.type === 'request') return [{ request, trigger }];
                logger.warn(`openapi: webhook "${request.name}": x-mockyard-on must be a request pattern such as "POST /pets"`);
              } catch (err) {
                logger.warn(`openapi: ${(err as Error).message}`);
              }
              return [];
            });
            return h;
          },
          () => (hooks = null), // the openapi layers report a document that cannot be read
        )
    : Promise.resolve(null);

  async function fromRule(rule: ResolvedWebhook, cause: WebhookCause, token: number | undefined): Promise<void> {
    try {
      const url = typeof rule.url === 'function' ? await rule.url(cause) : rule.url;
      if (url === undefined) return;
      const body = rule.body === undefined ? (cause.change ? cause.change.item : cause.response?.body) : typeof rule.body === 'function' ? await (rule.body as (c: WebhookCause) => unknown)(cause) : rule.body;
      deliveryOf().enqueue({ url, method: rule.method, headers: rule.headers, body: bodyBytes(body), event: rule.event, cause: { label: cause.event, ...(token !== undefined ? { token } : {}) }, delay: rule.delay, retry: rule.retry, secret: rule.secret, signature: rule.signature });
    } catch (err) {
      logger.error(`webhooks: ${rule.at} (${rule.on}) failed: ${(err as Error)?.message ?? err}`);
    }
  }

  /** Whether a document payload may go out (the contract check, `openapi.validateResponses` / `strictResponses`). */
  function fits(request: DocumentRequest, h: DocumentHooks, payload: unknown, what: string): boolean {
    if (contract === 'off') return true;
    const problems = h.problems(request, payload);
    if (problems.length === 0) return true;
    const text = `openapi: ${what} "${request.name}" (${request.method}): its payload breaks the document's schema: ${problems.join('; ')}`;
    if (contract === 'strict') {
      logger.error(`${text}; not sent (strictResponses)`);
      return false;
    }
    logger.warn(text);
    return true;
  }

  function fromDocument(request: DocumentRequest, h: DocumentHooks, url: string, token: number | undefined, label: string, answered?: unknown): void {
    // A webhook bound to a request (`x-mockyard-on`) carries what that request made (the answer's
    // JSON) when it fits the webhook's schema; else, as every document request, its example or a draw.
    const body = request.media?.schema !== undefined && typeof answered === 'object' && answered !== null && h.problems(request, answered).length === 0 ? answered : h.payload(request);
    if (!fits(request, h, body, request.url ? 'callback' : 'webhook')) return;
    deliveryOf().enqueue({ url: h.withQuery(request, url), method: request.method, headers: h.headerValues(request), body: bodyBytes(body), event: request.name, cause: { label, ...(token !== undefined ? { token } : {}) }, delay: 0, retry: DEFAULT_RETRY });
  }

  // Store changes → their rules (listening only when such a rule exists).
  let stopFeed: (() => void) | undefined;
  let closed = false;
  const feedReady: Promise<unknown> =
    changeRules.length === 0
      ? Promise.resolve()
      : Promise.resolve()
          .then(() => services.app.store.subscribe((change: StoreChange) => onChange(change)))
          .then(
            (stop) => {
              if (closed) stop();
              else stopFeed = stop;
            },
            (err: unknown) => logger.warn(`webhooks: store changes cannot be watched: ${(err as Error)?.message ?? err}`),
          );
  function onChange(change: StoreChange): void {
    for (const rule of changeRules) {
      const t = rule.trigger as WebhookTrigger & { type: 'change' };
      if (t.collection !== '*' && t.collection !== change.collection) continue;
      if (t.change !== '*' && t.change !== change.type) continue;
      const event = `${change.collection}.${change.type === 'removed' ? 'deleted' : change.type}`;
      void fromRule(rule, { event: `${event} ${change.id}`, change }, undefined);
    }
  }

  /** Whether a request may fire something (the fast path's question: no promise, no parse). */
  function mayFire(ctx: RequestContext): boolean {
    for (const r of requestRules) if (matchesTrigger(r.trigger as WebhookTrigger & { type: 'request' }, ctx.method, ctx.pathname)) return true;
    if (hooks === null) return false;
    if (hooks === undefined) return true; // not loaded yet: the promise path waits for it
    for (const b of bound) if (matchesTrigger(b.trigger, ctx.method, ctx.pathname)) return true;
    if (hooks.callbacks.size === 0) return false;
    const m = hooks.route(ctx.method, ctx.subPath);
    return m !== undefined && hooks.callbacks.has(m.label);
  }

  async function afterAnswer(ctx: RequestContext, response: Response, resText: Promise<string> | undefined): Promise<void> {
    const h = hooks ?? undefined;
    const status = response.status;
    const fitting = requestRules.filter((r) => {
      const t = r.trigger as WebhookTrigger & { type: 'request' };
      return matchesTrigger(t, ctx.method, ctx.pathname) && statusFits(t, status);
    });
    const ok = status >= 200 && status < 300;
    const route = ok && h && h.callbacks.size > 0 ? h.route(ctx.method, ctx.subPath) : undefined;
    const callbacks = route ? (h!.callbacks.get(route.label) ?? []) : [];
    const boundNow = ok ? bound.filter((b) => matchesTrigger(b.trigger, ctx.method, ctx.pathname)) : [];
    if (fitting.length === 0 && callbacks.length === 0 && boundNow.length === 0) return;
    const request = ctx.request;
    const token = markCause(request, nextCause);
    let reqBytes = ((request as unknown as Record<symbol, unknown>)[kBodyBytes] as Uint8Array | undefined) ?? bufferedBody(request);
    if (reqBytes === undefined && !request.bodyUsed && ctx.method !== 'GET' && ctx.method !== 'HEAD') reqBytes = await readBody(request, bodyLimit).catch(() => undefined);
    const requestBody = parseBody(reqBytes, request.headers.get('content-type'));
    const state = fastState(response);
    const resBytes = state ? fastBodyBytes(state) : resText ? encoder.encode(await resText) : null;
    const responseBody = parseBody(resBytes, response.headers.get('content-type'));
    const label = `${ctx.method} ${ctx.pathname}`;
    const cause: WebhookCause = { event: label, request, requestBody, response: { status, headers: response.headers, body: responseBody } };
    for (const rule of fitting) await fromRule(rule, cause, token);
    if (h) {
      const scope: ExpressionScope = {
        url: request.url,
        method: ctx.method,
        statusCode: status,
        request: { headers: request.headers, query: ctx.searchParams, path: route?.params ?? {}, body: requestBody },
        response: { headers: response.headers, body: responseBody },
      };
      for (const cb of callbacks) {
        const url = expand(cb.url!, scope);
        if (url === undefined || !/^https?:\/\//i.test(url)) {
          logger.warn(`openapi: callback "${cb.name}" of ${route!.label} not sent: ${cb.key} gives ${url === undefined ? 'no value' : `"${url}", not an http(s) URL`} for this request`);
          continue;
        }
        fromDocument(cb, h, url, token, label);
      }
      for (const b of boundNow) {
        if (target === null) logger.debug(`openapi: webhook "${b.request.name}" (x-mockyard-on) not sent: no target URL (api.webhooks.target, the devtools)`);
        else fromDocument(b.request, h, target, token, label, responseBody);
      }
    }
  }

  const wraps = requestRules.length > 0 || document !== null;
  const layer: Layer | undefined = wraps
    ? {
        name: 'webhooks',
        ready: Promise.all([hooksReady, feedReady]),
        peek: (ctx) => (mayFire(ctx) ? undefined : PASS),
        async handle() {
          if (hooks === undefined) await hooksReady;
          return undefined;
        },
        async around(ctx, next) {
          const response = await next();
          if (response === undefined || !mayFire(ctx)) return response;
          // A native JSON answer is read from a copy (the client gets the original at once).
          let resText: Promise<string> | undefined;
          if (fastState(response) === undefined && Object.getPrototypeOf(response) === Response.prototype && /json/i.test(response.headers.get('content-type') ?? '')) resText = response.clone().text().catch(() => '');
          void afterAnswer(ctx, response, resText).catch((err: unknown) => logger.error(`webhooks: ${ctx.method} ${ctx.pathname}: ${(err as Error)?.message ?? err}`));
          return response;
        },
        // Shared by every pipeline (scenarios, sessions): the engine closes it once (create-mock-api.ts).
      }
    : undefined;

  function closeAll(): void {
    if (closed) return;
    closed = true;
    stopFeed?.();
    delivery?.close();
  }

  let target: string | null = null;
  const control: WebhooksControl = {
    send(url, init = {}) {
      const at = 'app.webhook';
      if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) throw new HttpError(500, `${at}: the URL must be an absolute http(s) URL (got ${JSON.stringify(url)})`);
      const method = (check.string(init.method, `${at}.method`, 'POST', { nonEmpty: true }) ?? 'POST').toUpperCase();
      const signature = init.signature === undefined ? undefined : check.oneOf(init.signature, `${at}.signature`, SIGNATURE_STYLES, 'github');
      return deliveryOf().enqueue({
        url,
        method,
        headers: init.headers ?? {},
        body: bodyBytes(init.body),
        event: init.event ?? 'app.webhook',
        cause: { label: init.event ?? 'app.webhook' },
        delay: check.number(init.delay, `${at}.delay`, 0, { min: 0 }),
        retry: resolveRetry(init.retry, `${at}.retry`),
        secret: init.secret,
        signature,
      });
    },
    async documentWebhooks() {
      const h = await hooksReady;
      if (!h) return [];
      return h.webhooks.map((w) => ({ name: w.name, method: w.method, on: w.on ?? null, payload: h.payload(w) ?? null }));
    },
    async sendDocumentWebhook(name, o) {
      const h = await hooksReady;
      const w = h?.webhooks.find((x) => x.name === name && (o.method === undefined || x.method === o.method.toUpperCase()) && x.media !== undefined) ?? h?.webhooks.find((x) => x.name === name && (o.method === undefined || x.method === o.method.toUpperCase()));
      if (!h || !w) throw new HttpError(404, `The document has no webhook "${name}"${o.method ? ` with ${o.method.toUpperCase()}` : ''}`, { details: { webhooks: h ? [...new Set(h.webhooks.map((x) => x.name))] : [] } });
      if (typeof o.url !== 'string' || !/^https?:\/\//i.test(o.url)) throw new HttpError(400, `"url" must be an absolute http(s) URL (got ${JSON.stringify(o.url)})`);
      const body = o.body !== undefined ? o.body : h.payload(w);
      if (contract !== 'off') {
        const problems = h.problems(w, body);
        if (problems.length > 0 && contract === 'strict') throw new HttpError(422, `The payload breaks the schema of webhook "${w.name}": ${problems.join('; ')}`, { details: { problems } });
        if (problems.length > 0) logger.warn(`openapi: webhook "${w.name}" (${w.method}): its payload breaks the document's schema: ${problems.join('; ')}`);
      }
      return deliveryOf().enqueue({ url: h.withQuery(w, o.url), method: w.method, headers: h.headerValues(w), body: bodyBytes(body), event: w.name, cause: { label: `webhook ${w.name}` }, delay: 0, retry: DEFAULT_RETRY, secret: o.secret, signature: o.signature });
    },
    observe(observer) {
      observers.add(observer);
      const off = delivery?.observe(observer);
      return () => {
        observers.delete(observer);
        off?.();
        delivery?.observe(observer)(); // the delivery made after observe() was called holds it too
      };
    },
    settled: () => (delivery ? delivery.settled() : Promise.resolve()),
    get pending() {
      return delivery?.pending ?? 0;
    },
    get target() {
      return target;
    },
    set target(url: string | null) {
      if (url !== null && (typeof url !== 'string' || !/^https?:\/\//i.test(url))) throw new HttpError(400, `the webhooks' target must be an absolute http(s) URL or null (got ${JSON.stringify(url)})`);
      target = url;
    },
  };

  return { layer, control, close: closeAll };
}
