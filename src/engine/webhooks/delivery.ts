/**
 * Webhook delivery: the one queue every outgoing webhook goes through (config webhooks, OpenAPI
 * callbacks and webhooks, `req.app.webhook`).
 *
 *   - never holds the answer of the request that caused it: `enqueue` only queues, the sending
 *     starts on a later turn;
 *   - in order per target (the URL's origin): one delivery at a time per receiver, the next one
 *     waits for the previous one's last attempt;
 *   - retries on a network error, a timeout or a 5xx, after the schedule's delays (default 0.5,
 *     1, 2, 4 s: five attempts over about 8 s); a 2xx/3xx is delivered, a 4xx is final;
 *   - bounded: at most `limit` deliveries waiting in all (default 1,000); past it a new one is
 *     dropped with a warning (once per burst), so a receiver that is down costs memory for at
 *     most `limit` bodies and a few log lines;
 *   - `close()` cancels what waits and aborts what is in flight;
 *   - observed: every attempt (sent, answered or failed, its duration) goes to the observers
 *     (the devtools journal's outgoing rows, `api.webhooks.deliveries`).
 * Each attempt is signed again (the Stripe scheme signs the time) and carries
 * `X-Mockyard-Delivery` (one id per delivery, the same on every attempt), `X-Mockyard-Event`
 * and `X-Mockyard-Timestamp` (unix seconds).
 */
import { readStream } from '../../core/body.js';
import type { Logger } from '../../core/logger.js';
import { abortableSleep } from '../../core/timers.js';
import { signatureHeader, type SignatureStyle } from '../../core/webhook-signature.js';
import type { RetrySchedule } from './options.js';

/** One webhook to send. */
export interface OutgoingWebhook {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: Uint8Array | null;
  /** `orders.created`, `POST /api/orders`, `onData`, `newPet`… */
  event: string;
  /** What caused it, for the journal: a label and the causing request's token (cause.ts), when a request did. */
  cause: { label: string; token?: number };
  delay: number;
  retry: RetrySchedule;
  secret?: string;
  signature?: SignatureStyle;
}

export type AttemptOutcome = 'delivered' | 'retrying' | 'failed' | 'cancelled';

/** One attempt, as observers see it. */
export interface WebhookAttempt {
  deliveryId: string;
  event: string;
  url: string;
  method: string;
  /** 1-based. */
  attempt: number;
  attempts: number;
  /** The headers sent (signature included). */
  headers: Record<string, string>;
  body: Uint8Array | null;
  /** The receiver's status, or undefined when it could not be reached. */
  status?: number;
  /** The receiver's answer (first 4 KiB), when it answered. */
  responseText?: string;
  /** Why it failed (network error, timeout) when no status came back. */
  error?: string;
  /** Epoch ms when the attempt started. */
  time: number;
  ms: number;
  outcome: AttemptOutcome;
  cause: { label: string; token?: number };
}

export type AttemptObserver = (attempt: WebhookAttempt) => void;

/** How an attempt reaches the receiver (the runtime's transport, else fetch). */
export type WebhookSend = (request: { url: string; method: string; headers: string[]; body: Uint8Array | null; timeout: number; signal: AbortSignal }) => Promise<{ status: number; text: string }>;

export const DEFAULT_QUEUE_LIMIT = 1000;
export const ATTEMPT_TIMEOUT = 10_000;
const RESPONSE_TEXT_LIMIT = 4096;
const decoder = new TextDecoder();
/** The platform's own setTimeout: retries wait on whatever clock is installed. */
const platformTimer = (callback: () => void, ms: number) => {
  const timer = setTimeout(callback, ms);
  return () => clearTimeout(timer);
};

/** WHATWG fetch (browsers, workers, Node without a runtime transport). */
export const fetchSend: WebhookSend = async ({ url, method, headers, body, timeout, signal }) => {
  const h = new Headers();
  for (let i = 0; i + 1 < headers.length; i += 2) h.append(headers[i]!, headers[i + 1]!);
  const timer = AbortSignal.timeout(timeout);
  const res = await fetch(url, { method, headers: h, body: body as BodyInit | null, redirect: 'manual', signal: AbortSignal.any([signal, timer]) });
  return { status: res.status, text: await answerText(res.body) };
};

/** The first bytes of an answer as text (the rest discarded). */
export async function answerText(body: ReadableStream<Uint8Array> | null): Promise<string> {
  if (!body) return '';
  try {
    return decoder.decode(await readStream(body, RESPONSE_TEXT_LIMIT));
  } catch {
    body.cancel().catch(() => {});
    return '';
  }
}

interface Pending {
  hook: OutgoingWebhook;
  id: string;
}

interface Target {
  queue: Pending[];
  running: boolean;
}

export class WebhookDelivery {
  private readonly targets = new Map<string, Target>();
  private readonly observers = new Set<AttemptObserver>();
  private readonly controller = new AbortController();
  private readonly idle = new Set<() => void>();
  private waiting = 0;
  private dropped = 0;
  private closed = false;

  constructor(
    private readonly send: WebhookSend,
    private readonly logger: Logger,
    private readonly limit = DEFAULT_QUEUE_LIMIT,
    private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void> = (ms, signal) => abortableSleep(ms, signal, platformTimer),
  ) {}

  /** How many deliveries wait or are being sent. */
  get pending(): number {
    return this.waiting;
  }

  observe(observer: AttemptObserver): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  /** Queues a delivery; returns its id, or undefined when it was dropped (queue full, closed). */
  enqueue(hook: OutgoingWebhook): string | undefined {
    if (this.closed) return undefined;
    if (this.waiting >= this.limit) {
      if (this.dropped++ === 0) this.logger.warn(`webhooks: ${this.limit} deliveries are waiting (is the receiver down?); new ones are dropped until the queue drains`);
      return undefined;
    }
    if (this.dropped > 0) this.logger.warn(`webhooks: ${this.dropped} deliveries were dropped while the queue was full`), (this.dropped = 0);
    let origin: string;
    try {
      origin = new URL(hook.url).origin;
    } catch {
      this.logger.warn(`webhooks: "${hook.url}" (${hook.event}) is not a URL; not sent`);
      return undefined;
    }
    const id = crypto.randomUUID();
    let target = this.targets.get(origin);
    if (!target) this.targets.set(origin, (target = { queue: [], running: false }));
    target.queue.push({ hook, id });
    this.waiting++;
    if (!target.running) {
      target.running = true;
      // A later turn: the caller's answer goes out first.
      setTimeout(() => void this.drain(origin, target!), 0);
    }
    return id;
  }

  /** Resolves once nothing waits or is in flight (tests, `api.webhooks.settled()`). */
  settled(): Promise<void> {
    if (this.waiting === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.add(resolve));
  }

  /** Cancels what waits, aborts what is in flight. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.controller.abort();
    for (const t of this.targets.values()) {
      for (const p of t.queue.splice(t.running ? 1 : 0)) this.report(p, 0, { time: Date.now(), ms: 0, outcome: 'cancelled', error: 'closed', headers: {} });
    }
    this.waiting = 0;
    this.wake();
  }

  private wake(): void {
    if (this.waiting !== 0) return;
    for (const resolve of this.idle) resolve();
    this.idle.clear();
  }

  private async drain(origin: string, target: Target): Promise<void> {
    try {
      while (!this.closed && target.queue.length > 0) {
        const p = target.queue[0]!;
        await this.deliver(p);
        target.queue.shift();
        if (!this.closed) this.waiting--;
        this.wake();
      }
    } finally {
      target.running = false;
      if (target.queue.length === 0) this.targets.delete(origin);
    }
  }

  private async deliver(p: Pending): Promise<void> {
    const { hook } = p;
    const signal = this.controller.signal;
    if (hook.delay > 0) await this.sleep(hook.delay, signal);
    const attempts = hook.retry.attempts;
    for (let n = 1; n <= attempts && !this.closed; n++) {
      const time = Date.now();
      const headers = await this.headersFor(p, time);
      const flat = Object.entries(headers).flat();
      const start = performance.now();
      let status: number | undefined;
      let text: string | undefined;
      let error: string | undefined;
      try {
        const r = await this.send({ url: hook.url, method: hook.method, headers: flat, body: hook.method === 'GET' || hook.method === 'HEAD' ? null : hook.body, timeout: ATTEMPT_TIMEOUT, signal });
        status = r.status;
        text = r.text;
      } catch (err) {
        if (this.closed) {
          this.report(p, n, { time, ms: performance.now() - start, outcome: 'cancelled', error: 'closed', headers });
          return;
        }
        error = describeError(err);
      }
      const ms = performance.now() - start;
      const retryable = status === undefined || status >= 500;
      const last = n === attempts;
      const outcome: AttemptOutcome = !retryable ? (status! < 400 ? 'delivered' : 'failed') : last ? 'failed' : 'retrying';
      this.report(p, n, { time, ms, outcome, status, responseText: text, error, headers });
      if (outcome === 'delivered') return;
      if (outcome === 'failed') {
        this.logger.warn(`webhooks: ${hook.method} ${hook.url} (${hook.event}) failed${attempts > 1 && retryable ? ` after ${n} attempts` : ''}: ${status ?? error}`);
        return;
      }
      this.logger.debug(`webhooks: ${hook.method} ${hook.url} (${hook.event}) attempt ${n} of ${attempts}: ${status ?? error}; retrying`);
      const delays = hook.retry.delays;
      await this.sleep(delays[Math.min(n - 1, delays.length - 1)] ?? 0, signal);
    }
  }

  private async headersFor(p: Pending, time: number): Promise<Record<string, string>> {
    const { hook } = p;
    const seconds = Math.floor(time / 1000);
    const headers: Record<string, string> = {
      ...(hook.body !== null ? { 'Content-Type': 'application/json' } : {}),
      'User-Agent': 'mockyard-webhooks',
      ...hook.headers,
      'X-Mockyard-Delivery': p.id,
      'X-Mockyard-Event': hook.event,
      'X-Mockyard-Timestamp': String(seconds),
    };
    if (hook.secret !== undefined) {
      const [name, value] = await signatureHeader(hook.signature ?? 'github', hook.secret, hook.body ?? new Uint8Array(0), seconds);
      headers[name] = value;
    }
    return headers;
  }

  private report(p: Pending, attempt: number, r: Pick<WebhookAttempt, 'time' | 'ms' | 'outcome' | 'status' | 'responseText' | 'error' | 'headers'>): void {
    if (this.observers.size === 0) return;
    const a: WebhookAttempt = { deliveryId: p.id, event: p.hook.event, url: p.hook.url, method: p.hook.method, attempt, attempts: p.hook.retry.attempts, body: p.hook.body, cause: p.hook.cause, ...r };
    for (const o of this.observers) {
      try {
        o(a);
      } catch (err) {
        this.logger.error(`webhooks: an observer failed: ${(err as Error)?.message ?? err}`);
      }
    }
  }
}

function describeError(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError') return `no answer within ${ATTEMPT_TIMEOUT} ms`;
  const code = e?.cause?.code;
  return code ? `${code}${e.cause?.message ? ` (${e.cause.message})` : ''}` : (e?.message ?? String(err));
}
