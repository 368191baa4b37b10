/** A handler's `body` schema (Standard Schema or type guard): checked after parsing, 400 when it fails. */
import { afterEach, describe, expect, it } from 'vitest';
import { OptionsError } from '../../../src/core/options.js';
import type { StandardSchemaV1 } from '../../../src/engine/body-schema.js';
import { defineHandler } from '../../../src/engine/define-handler.js';
import { call, closeApis, mockApi } from './engine-helpers.js';

afterEach(closeApis);

const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** A minimal Standard Schema: `{ name: string }`, trims the name (schemas may transform). */
const userSchema: StandardSchemaV1<unknown, { name: string }> = {
  '~standard': {
    version: 1,
    vendor: 'test',
    validate: async (value) => {
      const name = (value as { name?: unknown } | undefined)?.name;
      if (typeof name !== 'string') return { issues: [{ message: 'Expected a string', path: ['name'] }] };
      return { value: { name: name.trim() } };
    },
  },
};

describe('handler body schemas', () => {
  it('a Standard Schema passes the (transformed) value to the handler and answers 400 with its issues', async () => {
    const api = mockApi({ handlers: [defineHandler({ pattern: '/users', method: 'POST', body: userSchema, handle: (req) => ({ hello: req.body.name }) })] });
    expect(await (await call(api, '/api/users', json({ name: '  Ada ' }))).json()).toEqual({ hello: 'Ada' });
    const bad = await call(api, '/api/users', json({ name: 5 }));
    expect(bad.status).toBe(400);
    const body = await bad.json();
    expect(body.message).toBe('Invalid request body');
    expect(body.issues).toEqual([{ path: 'name', message: 'Expected a string' }]);
  });

  it('a type guard gates the body; a request without one is checked too', async () => {
    const isNote = (v: unknown): v is { text: string } => typeof (v as { text?: unknown } | undefined)?.text === 'string';
    const api = mockApi({ handlers: [defineHandler({ pattern: '/notes', method: '*', body: isNote, handle: (req) => ({ len: req.body.text.length }) })] });
    expect(await (await call(api, '/api/notes', json({ text: 'abc' }))).json()).toEqual({ len: 3 });
    expect((await call(api, '/api/notes', json({ txt: 'abc' }))).status).toBe(400);
    expect((await call(api, '/api/notes')).status).toBe(400);
  });

  it('the 400 goes through errorMiddlewares', async () => {
    const api = mockApi({
      errorMiddlewares: [(err, _req, res) => res.status(422).json({ mine: err.message })],
      handlers: [{ pattern: '/users', method: 'POST', body: userSchema, handle: () => 1 }],
    });
    const res = await call(api, '/api/users', json({}));
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ mine: 'Invalid request body' });
  });

  it('a body option that is neither a schema nor a function is a start-up error', () => {
    let err: unknown;
    try {
      mockApi({ handlers: [{ pattern: '/x', body: { parse: () => 1 } as never, handle: () => 1 }] });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(OptionsError);
    expect((err as OptionsError).option).toBe('mock.handlers[0].body');
  });
});
