/**
 * `mockyard export DOCUMENT --types FILE` (the built CLI) on three public documents: petstore-expanded
 * (3.0) and train-travel (3.1) from @readme/oas-examples, and the trimmed GitHub description in
 * test/fixtures/openapi (3.0: nullable, a discriminated oneOf). Each is judged by `tsc --strict`
 * on code that uses the types right and, under `@ts-expect-error`, wrong; the Swagger 2.0
 * petstore compiles too.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';
import { typecheck } from '../helpers/tsc.js';

const run = promisify(execFile);
const CLI = resolve(import.meta.dirname, '../../dist/node/cli.js');
const require = createRequire(import.meta.url);
const examples = (path: string) => require.resolve(`@readme/oas-examples/${path}`);

afterAll(removeTempDirs);

async function judge(document: string, usage: string): Promise<{ text: string; code: number; output: string }> {
  const dir = await makeTempDir();
  await run(process.execPath, [CLI, 'export', document, '--types', join(dir, 'api.d.ts')], { cwd: dir });
  const text = await readFile(join(dir, 'api.d.ts'), 'utf8');
  return { text, ...(await typecheck(dir, { 'api.d.ts': text, 'use.ts': usage, 'package.json': '{"type":"module"}' })) };
}

describe('types from documents', () => {
  it('petstore-expanded (3.0): allOf, component names, paths with parameters, bodies and responses by status', async () => {
    const { text, code, output } = await judge(examples('3.0/json/petstore-expanded.json'), `
import type { Api, NewPet, Pet, components, operations, paths } from './api.js';
const pet: Pet = { id: 1, name: 'Rex', tag: 'dog' };
const fresh: NewPet = { name: 'Tom' };
type FindQuery = NonNullable<paths['/pets']['get']['parameters']['query']>;
const query: FindQuery = { tags: ['a'], limit: 10 };
const listed: paths['/pets']['get']['responses'][200]['content']['application/json'] = [pet];
const added: operations['addPet']['requestBody']['content']['application/json'] = fresh;
const failure: components['schemas']['Error'] = { code: 500, message: 'x' };
const answer: Api['routes']['GET /pets/{id}']['response'] = pet;
export const all = [query, listed, added, failure, answer];
// @ts-expect-error a Pet has an id
export const noId: Pet = { name: 'Rex' };
// @ts-expect-error limit is a number
export const badLimit: FindQuery = { limit: '10' };
// @ts-expect-error the path parameter id is a number
export const badId: paths['/pets/{id}']['get']['parameters']['path'] = { id: 'x' };
// @ts-expect-error a 204 has no content
export const none: paths['/pets/{id}']['delete']['responses'][204]['content'] = {};
`);
    expect(text).toContain('export type Pet = NewPet & {');
    expect(output).toBe('');
    expect(code).toBe(0);
  }, 60_000);

  it('train-travel (3.1): readOnly (readonly, left out of request bodies), oneOf, enums, wrappers', async () => {
    const { text, code, output } = await judge(examples('3.1/json/train-travel.json'), `
import type { Api, Booking, BookingPayment, Station, paths } from './api.js';
const booking: Booking = { id: 'b1', trip_id: 't1', passenger_name: 'Ada', has_bicycle: false };
const body: Api['routes']['POST /bookings']['body'] = { trip_id: 't1', passenger_name: 'Ada' };
const card: BookingPayment['source'] = { object: 'card', name: 'A', number: '4242', cvc: 123, exp_month: 1, exp_year: 2030, address_country: 'gb' };
const bank: BookingPayment['source'] = { object: 'bank_account', name: 'A', number: '1', account_type: 'company', bank_name: 'B', country: 'gb' };
const stations: Api['routes']['GET /stations']['response'] = { data: [{ id: 's', name: 'n', address: 'a', country_code: 'GB' } satisfies Station] };
type Query = NonNullable<paths['/trips']['get']['parameters']['query']>;
export const all = [booking, body, card, bank, stations];
export type Q = Query;
// @ts-expect-error a booking's id is readOnly
booking.id = 'other';
// @ts-expect-error the create body leaves the readOnly id out
export const withId: Api['routes']['POST /bookings']['body'] = { id: 'b2', trip_id: 't1' };
// @ts-expect-error the currency is one of the documented codes
export const currency: BookingPayment['currency'] = 'usd';
// @ts-expect-error a card needs its number
export const noNumber: BookingPayment['source'] = { object: 'card', name: 'A', cvc: 1, exp_month: 1, exp_year: 1, address_country: 'gb' };
`);
    expect(text).toContain('readonly id?: string;');
    expect(text).toContain('Omit<Booking, "id">');
    expect(output).toBe('');
    expect(code).toBe(0);
  }, 60_000);

  it('GitHub (trimmed, 3.0): nullable, a discriminated oneOf narrowed by its tag, operations by operationId', async () => {
    const { text, code, output } = await judge(resolve(import.meta.dirname, '../fixtures/openapi/github-trimmed.json'), `
import type { Api, SimpleUser, operations } from './api.js';
type User = Api['routes']['GET /users/{username}']['response'];
declare const user: User;
if (user.user_view_type === 'private') {
  const gists: number = user.private_gists;
  const twoFactor: boolean = user.two_factor_authentication;
  void gists; void twoFactor;
}
const simple: Pick<SimpleUser, 'name' | 'email'> = { name: null, email: null };
type List = operations['users/list']['responses'][200]['content']['application/json'];
export const all: unknown[] = [simple];
export type L = List;
// @ts-expect-error the tag is "private" or "public"
export const tag: User['user_view_type'] = 'internal';
if (user.user_view_type === 'public') {
  // @ts-expect-error a public view has no two_factor_authentication
  void user.two_factor_authentication.valueOf();
}
// @ts-expect-error name is string | null, not a number
export const badName: Pick<SimpleUser, 'name'> = { name: 1 };
`);
    expect(text).toContain('user_view_type: "private"');
    expect(output).toBe('');
    expect(code).toBe(0);
  }, 60_000);

  it('Swagger 2.0: definitions and operations compile', async () => {
    const { code, output } = await judge(resolve(import.meta.dirname, '../fixtures/openapi/petstore-swagger-2.0.json'), "import type { Api } from './api.js';\nexport type R = keyof Api['routes'];\n");
    expect(output).toBe('');
    expect(code).toBe(0);
  }, 60_000);
});
