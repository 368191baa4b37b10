/**
 * Why a db file (json-server's db.json) cannot be served: missing, not JSON, not an object whose
 * keys are the resources. The CLI says it before serving, `mockyard export` before reading it.
 */
import { readFileSync } from 'node:fs';

/** Why a db file cannot be served (missing, not JSON, not an object), or undefined. */
export function checkDbFile(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? `${file} not found` : `cannot read ${file} (${code ?? 'error'})`;
  }
  if (text.trim() === '') return undefined; // an empty file is an empty db
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return `${file} is not valid JSON: ${(err as Error).message}`;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return `${file} must hold a JSON object whose keys are the resources, e.g. { "posts": [], "profile": {} }`;
  }
  return undefined;
}
