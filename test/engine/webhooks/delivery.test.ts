/**
 * The delivery queue on its own (delivery.ts), with a transport that records what it is asked:
 * bounded (a full queue drops with one warning), one receiver's deliveries in order, another
 * receiver not held up by a slow one, close() cancelling what waits.
 */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/logger.js';
import { WebhookDelivery, type WebhookSend } from '../../../src/engine/webhooks/delivery.js';
import type { OutgoingWebhook } from '../../../src/engine/webhooks/delivery.js';

const hook = (url: string, n: number): OutgoingWebhook => ({ url, method: 'POST', headers: {}, body: new TextEncoder().encode(JSON.stringify({ n })), event: 'test', cause: { label: 'test' }, delay: 0, retry: { attempts: 3, delays: [1] } });

describe('WebhookDelivery', () => {
  it('bounded: past the limit new deliveries are dropped with one warning; what was queued still goes', async () => {
    const warnings: string[] = [];
    const sent: string[] = [];
    const send: WebhookSend = async (r) => (sent.push(new TextDecoder().decode(r.body!)), { status: 200, text: '' });
    const d = new WebhookDelivery(send, createLogger('warn', { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error() {} }), 10);
    const ids = Array.from({ length: 25 }, (_, i) => d.enqueue(hook('http://r.test/a', i)));
    expect(ids.filter(Boolean)).toHaveLength(10);
    expect(d.pending).toBe(10);
    expect(warnings).toHaveLength(1);
    await d.settled();
    expect(sent.map((s) => JSON.parse(s).n)).toEqual([...Array(10).keys()]);
    d.enqueue(hook('http://r.test/a', 99));
    expect(warnings[1]).toMatch(/15 deliveries were dropped/);
    await d.settled();
  });

  it('a slow receiver holds only its own queue; close() cancels what waits and aborts what is in flight', async () => {
    const order: string[] = [];
    let release: () => void = () => {};
    const send: WebhookSend = (r) => {
      order.push(r.url);
      if (r.url.startsWith('http://slow')) return new Promise((_, reject) => { release = () => reject(new Error('aborted')); r.signal.addEventListener('abort', () => release()); });
      return Promise.resolve({ status: 204, text: '' });
    };
    const d = new WebhookDelivery(send, createLogger('silent'));
    const outcomes: string[] = [];
    d.observe((a) => outcomes.push(`${a.url} ${a.outcome}`));
    d.enqueue(hook('http://slow.test/1', 1));
    d.enqueue(hook('http://slow.test/2', 2));
    d.enqueue(hook('http://fast.test/1', 3));
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual(['http://slow.test/1', 'http://fast.test/1']);
    expect(d.pending).toBe(2);
    d.close();
    await d.settled();
    await new Promise((r) => setTimeout(r, 0));
    expect(outcomes.sort()).toEqual(['http://fast.test/1 delivered', 'http://slow.test/1 cancelled', 'http://slow.test/2 cancelled']);
    expect(d.enqueue(hook('http://fast.test/2', 4))).toBeUndefined();
  });

  it('a network error is retried on the schedule, then reported failed with the error', async () => {
    const send: WebhookSend = () => Promise.reject(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:9' } }));
    const d = new WebhookDelivery(send, createLogger('silent'));
    const seen: Array<[number, string, string | undefined]> = [];
    d.observe((a) => seen.push([a.attempt, a.outcome, a.error]));
    d.enqueue(hook('http://down.test/x', 1));
    await d.settled();
    expect(seen).toEqual([[1, 'retrying', 'ECONNREFUSED (connect ECONNREFUSED 127.0.0.1:9)'], [2, 'retrying', 'ECONNREFUSED (connect ECONNREFUSED 127.0.0.1:9)'], [3, 'failed', 'ECONNREFUSED (connect ECONNREFUSED 127.0.0.1:9)']]);
  });
});
