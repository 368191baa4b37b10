/**
 * `defineHandler({...})`: an identity function that types one REST handler: `req.params` from the
 * pattern literal (`'/users/{id}'` → `{ id: string }`) and `req.body` from its `body` schema.
 *
 *   handlers: [
 *     defineHandler({ pattern: '/users/:id', handle: (req) => ({ id: req.params.id }) }),
 *     defineHandler({ pattern: '/users', method: 'POST', body: NewUser, handle: (req) => req.body.name }),
 *   ]
 */
import type { RestHandler } from './types.js';

export function defineHandler<const P extends string, Body = unknown>(handler: RestHandler<P, Body>): RestHandler {
  return handler as unknown as RestHandler;
}
