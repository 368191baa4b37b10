/**
 * documentTypes (src/contract/document-types.ts) on a small inline 3.0 document: a discriminated
 * base whose children name it in `allOf` (each child gets its tag), `writeOnly` left out of
 * answers and `readOnly` out of request bodies, `nullable`; judged by `tsc --strict`.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { documentTypes } from '../../src/contract/document-types.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';
import { typecheck } from '../helpers/tsc.js';

afterAll(removeTempDirs);

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });

const doc = {
  openapi: '3.0.3',
  info: { title: 'zoo', version: '1' },
  paths: {
    '/pets': {
      post: { operationId: 'addPet', requestBody: { required: true, ...json(ref('Pet')) }, responses: { 201: { description: 'made', ...json(ref('Pet')) } } },
    },
    '/accounts': {
      post: { requestBody: { required: true, ...json(ref('Account')) }, responses: { 200: { description: 'ok', ...json(ref('Account')) } } },
    },
  },
  components: {
    schemas: {
      Pet: { type: 'object', required: ['petType'], properties: { petType: { type: 'string' }, id: { type: 'integer', readOnly: true }, nick: { type: 'string', nullable: true } }, discriminator: { propertyName: 'petType', mapping: { kitty: '#/components/schemas/Cat' } } },
      Cat: { allOf: [ref('Pet'), { type: 'object', properties: { purrs: { type: 'boolean' } } }] },
      Dog: { allOf: [ref('Pet'), { type: 'object', required: ['barks'], properties: { barks: { type: 'boolean' } } }] },
      Account: { type: 'object', required: ['login'], properties: { login: { type: 'string' }, password: { type: 'string', writeOnly: true } } },
    },
  },
};

describe('documentTypes', () => {
  it('discriminated children carry their tag; readOnly/writeOnly honoured; nullable', async () => {
    const text = documentTypes(doc, 'zoo.json');
    expect(text).toContain('export type Cat = (Pet & {');
    expect(text).toContain('& { petType: "kitty" }');
    expect(text).toContain('& { petType: "Dog" }');
    expect(text).toContain('"POST /accounts": { body: Account; response: Omit<Account, "password"> }');
    expect(text).toContain('"POST /pets": { body: Omit<Pet, "id">; response: Pet }');
    const dir = await makeTempDir();
    const result = await typecheck(dir, {
      'api.d.ts': text,
      'package.json': '{"type":"module"}',
      'use.ts': `
import type { Api, Cat, Dog, Pet } from './api.js';
const cat: Cat = { petType: 'kitty', purrs: true, nick: null };
const dog: Dog = { petType: 'Dog', barks: true };
const pet: Pet = cat;
const answer: Api['routes']['POST /accounts']['response'] = { login: 'ada' };
export const all = [dog, pet, answer];
// @ts-expect-error a Cat's tag is "kitty"
export const wrongTag: Cat = { petType: 'Dog', purrs: true };
// @ts-expect-error the answer has no password (writeOnly)
export const leaked: Api['routes']['POST /accounts']['response'] = { login: 'ada', password: 'x' };
// @ts-expect-error a new pet has no id (readOnly)
export const withId: Api['routes']['POST /pets']['body'] = { petType: 'Dog', id: 1 };
// @ts-expect-error nick is string | null
export const badNick: Pet = { petType: 'kitty', nick: 1 };
`,
    });
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  }, 60_000);
});
