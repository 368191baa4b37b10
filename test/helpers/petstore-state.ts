/**
 * What the tests of `mockyard petstore.yaml --state ./state` (the built CLI on a real folder)
 * share: the document, the credentials its operations ask, a JSON call, and state/pet.json read
 * from disk.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

export const PETSTORE = resolve('node_modules/@readme/oas-examples/3.0/yaml/petstore.yaml');
/** GET /pet/{petId} needs the api_key header. */
export const KEY = { api_key: 'k' };
/** PUT /pet needs petstore_auth. */
export const AUTH = { authorization: 'Bearer t' };

/** A request with an optional JSON body; the answer's status, headers and JSON (undefined when empty). */
export async function call(url: string, method = 'GET', body?: unknown, headers: Record<string, string> = {}) {
  const r = await fetch(url, { method, headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, headers: r.headers, json: text ? JSON.parse(text) : undefined };
}

/** The pets in `<dir>/state/pet.json` as the disk holds them. */
export const petsOnDisk = async (dir: string) => JSON.parse(await readFile(join(dir, 'state', 'pet.json'), 'utf8')) as Array<Record<string, unknown>>;
