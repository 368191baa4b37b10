/**
 * Type tests, checked by `npm test` (its typecheck step covers test/): every `@ts-expect-error`
 * below must be an error, or `tsc` fails ("Unused '@ts-expect-error' directive"). Nothing here
 * runs.
 */
import { createMockApi, defineConfig, defineHandler, memoryFs, type RestHandler, type StandardSchemaV1 } from 'mockyard';
import { mockyard } from 'mockyard/node';

// ---- defineConfig: typos are compile errors at every depth --------------------------------

defineConfig({ mock: { endpointPrefix: '/api', fsDir: './mocks' }, port: 3001 });

// @ts-expect-error top level: `prot`
defineConfig({ prot: 3001 });
// @ts-expect-error mock: `fsdir`
defineConfig({ mock: { endpointPrefix: '/api', fsdir: './mocks' } });
// @ts-expect-error pagination config: `limt`
defineConfig({ mock: { endpointPrefix: '/api', pagination: { GET: { type: 'query-param', limt: '_limit' } } } });
// @ts-expect-error pagination method key: `GTE`
defineConfig({ mock: { endpointPrefix: '/api', pagination: { GTE: { type: 'query-param' } } } });
// @ts-expect-error filter entry: `comparision`
defineConfig({ mock: { endpointPrefix: '/api', filters: { GET: { type: 'query-param', filters: [{ key: 'a', comparision: 'eq' }] } } } });
// @ts-expect-error handler: `delya`
defineConfig({ mock: { endpointPrefix: '/api', handlers: [{ pattern: '/x', delya: 5, handle: () => 1 }] } });
// @ts-expect-error ws handler: `onMesage`
defineConfig({ mock: { endpointPrefix: '/api', enableWs: true, wsHandlers: [{ pattern: '/ws', onMessage() {}, onMesage() {} }] } });
// @ts-expect-error tracker: `apiKey` is right, `apikey` is not
defineConfig({ tracker: { appId: 'a', apikey: 'k' } });
// @ts-expect-error a wrong value type: port as a string
defineConfig({ port: '3000' });

// delay: ms or [min, max]
defineConfig({ mock: { endpointPrefix: '/api', delay: [100, 300], handlers: [{ pattern: '/x', delay: [0, 50], handle: () => 1 }] } });
// @ts-expect-error delay: a range has two numbers
defineConfig({ mock: { endpointPrefix: '/api', delay: [1, 2, 3] } });

// Function-form configs still work (sync and async).
export const syncFn = defineConfig(() => ({ mock: { endpointPrefix: '/api', fsDir: './mocks' } }));
export const asyncFn = defineConfig(async () => ({ port: 0, mock: { endpointPrefix: '/api' } }));

// The Vite plugin's options are checked the same way.
// @ts-expect-error vite plugin: `fsdir`
mockyard({ mock: { endpointPrefix: '/api', fsdir: 'mocks' } });

// ---- handlers: req.params from the pattern literal, req.body from the schema ---------------

defineHandler({
  pattern: '/users/{id}/posts/{postId:\\d+}',
  handle: (req) => {
    const id: string = req.params.id;
    const postId: string = req.params.postId;
    // @ts-expect-error no such parameter
    void req.params.userId;
    return { id, postId };
  },
});

defineHandler({
  pattern: '/flights/:from-:to',
  handle: (req) => {
    const route: string = `${req.params.from}→${req.params.to}`;
    // @ts-expect-error no such parameter
    void req.params.via;
    return route;
  },
});

defineHandler({ pattern: '/assets/**', handle: (req) => req.params['0'] });

interface NewUser {
  name: string;
  age: number;
}
const isNewUser = (v: unknown): v is NewUser => typeof v === 'object' && v !== null && typeof (v as NewUser).name === 'string';
defineHandler({
  pattern: '/users',
  method: 'POST',
  body: isNewUser,
  handle: (req) => {
    const name: string = req.body.name;
    // @ts-expect-error no such field
    void req.body.email;
    return { name };
  },
});

// A Standard Schema (what zod / valibot / arktype produce) types the body from its output.
declare const userSchema: StandardSchemaV1<unknown, NewUser>;
defineHandler({
  pattern: '/users/:id',
  method: 'PUT',
  body: userSchema,
  handle: (req) => {
    const age: number = req.body.age;
    // @ts-expect-error age is a number
    const wrong: string = req.body.age;
    return { id: req.params.id, age, wrong };
  },
});

// Without defineHandler the types stay broad (as before): params are strings, body unknown.
const plain: RestHandler = {
  pattern: '/users/{id}',
  handle: (req) => {
    const id: string | undefined = req.params.id;
    // @ts-expect-error body is unknown until checked
    void req.body.name;
    return id;
  },
};

// defineHandler results go in the handlers array.
export const api = createMockApi({
  endpointPrefix: '/api',
  fs: memoryFs(),
  handlers: [plain, defineHandler({ pattern: '/ping', handle: () => 'pong' })],
});
