/**
 * Patterns people type from other routers: `:name` works as `{name}`; syntax that would be taken
 * literally (and never match what was meant) is reported once at start-up.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { compilePattern } from '../../../src/engine/handler-api/pattern.js';
import { lintPattern } from '../../../src/engine/handler-api/pattern-lint.js';
import { call, closeApis, mockApi } from '../handlers/engine-helpers.js';

afterEach(closeApis);

describe(':name parameters', () => {
  it('capture one segment like {name}', () => {
    const p = compilePattern('/users/:id');
    expect(p.match('/users/5')).toEqual({ id: '5' });
    expect(p.match('/users/5/')).toEqual({ id: '5' });
    expect(p.match('/users/')).toBeNull();
    expect(p.match('/users/5/posts')).toBeNull();
    expect(compilePattern('/users/:userId/posts/:postId').match('/users/7/posts/9')).toEqual({ userId: '7', postId: '9' });
  });

  it('end at a character that cannot be part of a name, and mix with {name}', () => {
    expect(compilePattern('/flights/:from-:to').match('/flights/LHR-JFK')).toEqual({ from: 'LHR', to: 'JFK' });
    expect(compilePattern('/files/:name.json').match('/files/report.json')).toEqual({ name: 'report' });
    expect(compilePattern('/a/:x/{y}').match('/a/1/2')).toEqual({ x: '1', y: '2' });
  });

  it('leave a colon inside a word literal (/items:batchGet, /at/12:30)', () => {
    expect(compilePattern('/items:batchGet').match('/items:batchGet')).toEqual({});
    expect(compilePattern('/items:batchGet').match('/itemsX')).toBeNull();
    expect(compilePattern('/at/12:30').match('/at/12:30')).toEqual({});
  });

  it('reject a name used twice, whatever the syntax', () => {
    expect(() => compilePattern('/a/:x/{x}', 'mock.handlers[0].pattern')).toThrow(/mock\.handlers\[0\]\.pattern.*twice/);
  });

  it('serve /api/users/5 through a handler written /users/:id', async () => {
    const api = mockApi({ handlers: [{ pattern: '/users/:id', handle: (req) => ({ id: req.params.id }) }] });
    expect(await (await call(api, '/api/users/5')).json()).toEqual({ id: '5' });
  });
});

describe('start-up warnings for foreign pattern syntax', () => {
  it.each([
    ['/users?id=1', /query string/],
    ['/users/:id(\\d+)', /path-to-regexp custom pattern/],
    ['/users/:id?', /modifier/],
    ['/docs/:path*', /modifier/],
    ['/users/[id]', /brackets/],
    ['/blog/[...slug]', /brackets/],
    ['/users/<int:id>', /angle-bracket/],
    ['/users/$id', /"\$name"/],
    ['/users/(\\d+)', /regular expression/],
  ])('%s is reported', (pattern, advice) => {
    expect(lintPattern(pattern, 'mock.handlers[0].pattern')).toMatch(advice);
  });

  it.each(['/users/{id}', '/users/:id', '/orders/{id:\\d+}', '/files/*.csv', '/v?/ping', '/assets/**', '/flights/:from-:to', '/items:batchGet', '/re/{x:(a|b)\\d+$}'])(
    '%s is not',
    (pattern) => {
      expect(lintPattern(pattern, 'p')).toBeUndefined();
    },
  );

  it('reach the logger once, naming the handler, for REST and WebSocket handlers', async () => {
    const warnings: string[] = [];
    const logger = { info() {}, warn: (m: string) => warnings.push(m), error() {} };
    mockApi({
      logLevel: 'warn',
      logger,
      handlers: [
        { pattern: '/users/{id}', handle: () => ({}) },
        { pattern: '/users/[id]', handle: () => ({}) },
      ],
      enableWs: true,
      wsHandlers: [{ pattern: '/chat/:room?', onMessage() {} }],
    });
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/mock\.handlers\[1\]\.pattern "\/users\/\[id\]"/);
    expect(warnings[1]).toMatch(/mock\.wsHandlers\[0\]\.pattern/);
  });
});
