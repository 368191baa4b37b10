/**
 * `mock.webhooks` validation (every mistake names its option) and the runtime-expression parser
 * (OpenAPI 3.0/3.1 "Runtime Expressions").
 */
import { describe, expect, it } from 'vitest';
import { createMockApi } from '../../../src/engine/create-mock-api.js';
import { OptionsError } from '../../../src/core/options.js';
import { memoryFs } from '../../../src/vfs/memory.js';
import { resolveWebhooksOption } from '../../../src/engine/webhooks/options.js';
import { expand, parseExpression, parseTemplate, type ExpressionScope } from '../../../src/engine/webhooks/runtime-expression.js';

const bad = (value: unknown): OptionsError => {
  try {
    resolveWebhooksOption(value, 'mock.webhooks');
  } catch (err) {
    return err as OptionsError;
  }
  throw new Error('accepted');
};

describe('mock.webhooks options', () => {
  it('names the option of each mistake', () => {
    expect(bad({}).option).toBe('mock.webhooks');
    expect(bad([{ on: 'POST', url: 'http://x' }]).option).toBe('mock.webhooks[0].on');
    expect(bad([{ on: 'FETCH /a', url: 'http://x' }]).message).toMatch(/mock\.webhooks\[0\]\.on" names the method "FETCH"/);
    expect(bad([{ on: 'POST /a 6xx', url: 'http://x' }]).option).toBe('mock.webhooks[0].on');
    expect(bad([{ on: 'orders.paid', url: 'http://x' }]).option).toBe('mock.webhooks[0].on');
    expect(bad([{ on: 'orders.created', url: 'file:///etc/passwd' }]).option).toBe('mock.webhooks[0].url');
    expect(bad([{ on: 'orders.created', url: 'http://x', retry: { attempts: 0 } }]).option).toBe('mock.webhooks[0].retry.attempts');
    expect(bad([{ on: 'orders.created', url: 'http://x', retry: { delays: [-1] } }]).option).toBe('mock.webhooks[0].retry.delays[0]');
    expect(bad([{ on: 'orders.created', url: 'http://x', signature: 'stripe' }]).option).toBe('mock.webhooks[0].signature');
    expect(bad([{ on: 'orders.created', url: 'http://x', secret: 's', signature: 'svix' }]).option).toBe('mock.webhooks[0].signature');
    expect(bad([{ on: 'orders.created', url: 'http://x', retires: 3 }]).option).toBe("mock.webhooks[0].retires");
    expect(bad([{ on: 'orders.created', url: 'http://x', headers: { 'a b': 'c' } }]).option).toBe('mock.webhooks[0].headers');
  });

  it('reads patterns and changes; deleted is the store\'s removed', () => {
    const [a, b, c] = resolveWebhooksOption([{ on: 'post /api/orders/:id', url: 'http://x' }, { on: 'orders.deleted', url: 'http://x', retry: false }, { on: 'PUT /api/** *', url: () => undefined, retry: 2 }], 'mock.webhooks');
    expect(a!.trigger).toMatchObject({ type: 'request', method: 'POST', status: 2 });
    expect((a!.trigger as { path: RegExp }).path.test('/api/orders/7')).toBe(true);
    expect((a!.trigger as { path: RegExp }).path.test('/api/orders/7/x')).toBe(false);
    expect(b!.trigger).toEqual({ type: 'change', collection: 'orders', change: 'removed' });
    expect(b!.retry.attempts).toBe(1);
    expect(c!.trigger).toMatchObject({ status: 0 });
    expect(c!.retry).toEqual({ attempts: 2, delays: [500, 1000, 2000, 4000] });
  });

  it('the engine validates it at start-up, and without it builds no webhooks layer', () => {
    expect(() => createMockApi({ endpointPrefix: '/api', fs: memoryFs({}), webhooks: [{ on: 'x', url: 'http://x' }] })).toThrow(/mock\.webhooks\[0\]\.on/);
    expect(createMockApi({ endpointPrefix: '/api', fs: memoryFs({}) }).layers).not.toContain('webhooks');
    expect(createMockApi({ endpointPrefix: '/api', fs: memoryFs({}), webhooks: [{ on: 'orders.created', url: 'http://x' }] }).layers).not.toContain('webhooks'); // a store change needs no layer
    expect(createMockApi({ endpointPrefix: '/api', fs: memoryFs({}), webhooks: [{ on: 'POST /api/x', url: 'http://x' }] }).layers[0]).toBe('webhooks');
  });
});

describe('runtime expressions', () => {
  const scope: ExpressionScope = {
    url: 'http://h/api/s?x=1',
    method: 'POST',
    statusCode: 201,
    request: { headers: new Headers({ 'X-Callback': 'http://r/c' }), query: new URLSearchParams('callbackUrl=http://r/q&n=2'), path: { id: '7' }, body: { cb: { 'a/b': 'http://r/b' }, list: ['x', 'y'] } },
    response: { headers: new Headers({ Location: '/s/9' }), body: { id: 9, nested: { ok: true } } },
  };

  it('parses the grammar and refuses what is not in it', () => {
    expect(parseExpression('$request.body#/cb/a~1b')).toEqual({ kind: 'body', from: 'request', pointer: ['cb', 'a/b'] });
    expect(parseExpression('$response.header.Location')).toEqual({ kind: 'header', from: 'response', name: 'Location' });
    expect(() => parseExpression('$request.cookie.x')).toThrow(/not a runtime expression/);
    expect(() => parseExpression("$request.body#cb")).toThrow(/not a JSON pointer/);
    expect(() => parseExpression("$request.bodyx")).toThrow(/body reference/);
    expect(() => parseExpression('$request.query')).toThrow(/needs a name/);
    expect(() => parseTemplate('{$request.query.x/data')).toThrow(/never closed/);
  });

  it('expands templates against an exchange', () => {
    expect(expand(parseTemplate('{$request.query.callbackUrl}/data'), scope)).toBe('http://r/q/data');
    expect(expand(parseTemplate('{$request.body#/cb/a~1b}?id={$response.body#/id}&m={$method}&s={$statusCode}'), scope)).toBe('http://r/b?id=9&m=POST&s=201');
    expect(expand(parseTemplate('$request.header.x-callback'), scope)).toBe('http://r/c');
    expect(expand(parseTemplate('{$request.body#/list/1}{$request.path.id}{$response.header.location}'), scope)).toBe('y7/s/9');
    expect(expand(parseTemplate('{$request.query.missing}/x'), scope)).toBeUndefined();
    expect(expand(parseTemplate('{$url}'), scope)).toBe('http://h/api/s?x=1');
  });
});
