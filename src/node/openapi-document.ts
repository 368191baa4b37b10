/**
 * An OpenAPI document from a file (Node hosts): JSON or YAML (the `yaml` package; a `.json` file
 * is parsed as JSON first, fast on 13 MB documents), with its references to other files
 * (`schemas.yaml#/Pet`, `./common.json`) made local: each other file is mounted once under
 * `x-mockyard-files/<n>` of the root document and every reference rewritten to point there, so
 * the document stays one object whose `$ref`s are followed on demand (never a dereferenced
 * copy). `http(s)` URLs are fetched. `isOpenApiDocument` tells a document from other JSON
 * (a top-level `openapi` or `swagger`).
 */
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { isObj } from '../core/json-object.js';

type Obj = Record<string, unknown>;

export const MOUNT = 'x-mockyard-files';

export function isOpenApiDocument(value: unknown): boolean {
  return isObj(value) && (typeof value.openapi === 'string' || value.swagger === '2.0' || value.swagger === 2);
}

/** Parses document text: JSON when it looks like JSON, else YAML. */
export function parseDocumentText(text: string, name: string): unknown {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.parse(text);
    } catch (err) {
      if (name.toLowerCase().endsWith('.json')) throw new Error(`${name} is not valid JSON: ${(err as Error).message}`);
    }
  }
  try {
    return parseYaml(text, { maxAliasCount: 10_000 });
  } catch (err) {
    throw new Error(`${name} is neither JSON nor YAML: ${(err as Error).message}`);
  }
}

const isUrl = (s: string) => /^https?:\/\//i.test(s);

async function readSource(location: string): Promise<string> {
  if (isUrl(location)) {
    const res = await fetch(location);
    if (!res.ok) throw new Error(`${location} answered ${res.status}`);
    return res.text();
  }
  return readFile(location, 'utf8');
}

function join(base: string, ref: string): string {
  if (isUrl(ref) || isAbsolute(ref)) return ref;
  if (isUrl(base)) return new URL(ref, base).href;
  return resolve(dirname(base), ref);
}

/** Whether the text has a `$ref` whose value does not start with `#` (a scan, no regex backtracking). */
function refersToOtherFiles(text: string): boolean {
  for (let at = text.indexOf('$ref'); at !== -1; at = text.indexOf('$ref', at + 4)) {
    let i = at + 4;
    while (i < text.length && ' "\':\t'.includes(text[i]!)) i++;
    if (i < text.length && text[i] !== '#') return true;
  }
  return false;
}

/** Reads the document at `source` (relative to `root`) with the files it refers to. */
export async function loadDocumentFile(source: string, root?: string): Promise<Obj> {
  const main = isUrl(source) || isAbsolute(source) ? source : resolve(root ?? process.cwd(), source);
  const mainText = await readSource(main);
  const rootDoc = parseDocumentText(mainText, main);
  if (!isObj(rootDoc)) throw new Error(`${source} does not hold an object`);
  const mounted = new Map<string, number>();
  const files: unknown[] = [];
  const pending: { value: unknown; file: string; prefix: string }[] = [{ value: rootDoc, file: main, prefix: '#' }];

  const localRef = async (ref: string, file: string, prefix: string): Promise<string> => {
    const hash = ref.indexOf('#');
    const path = hash === -1 ? ref : ref.slice(0, hash);
    const pointer = hash === -1 ? '' : ref.slice(hash + 1);
    if (path === '') return `${prefix}${pointer}`;
    const target = join(file, path);
    if (target === main) return `#${pointer}`;
    let n = mounted.get(target);
    if (n === undefined) {
      n = files.length;
      mounted.set(target, n);
      const value = parseDocumentText(await readSource(target), target);
      files.push(value);
      pending.push({ value, file: target, prefix: `#/${MOUNT}/${n}` });
    }
    return `#/${MOUNT}/${n}${pointer}`;
  };

  // Only documents with references to other files are walked (a single-file document, even a
  // big one, is used as parsed).
  if (!refersToOtherFiles(mainText)) return rootDoc;
  while (pending.length) {
    const { value, file, prefix } = pending.shift()!;
    const stack: unknown[] = [value];
    while (stack.length) {
      const node = stack.pop();
      if (Array.isArray(node)) stack.push(...node);
      else if (isObj(node)) {
        if (typeof node.$ref === 'string' && (prefix !== '#' || !node.$ref.startsWith('#'))) node.$ref = await localRef(node.$ref, file, prefix);
        for (const [k, v] of Object.entries(node)) if (k !== '$ref' && v !== null && typeof v === 'object') stack.push(v);
      }
    }
  }
  if (files.length) rootDoc[MOUNT] = files;
  return rootDoc;
}
