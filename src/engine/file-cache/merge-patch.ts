import { isObj } from '../../core/json-object.js';

/**
 * JSON Merge Patch (RFC 7396): applies `patch` to `target` and returns the result. An object
 * target is changed in place (callers pass a copy); any other target is replaced. Keys are set as
 * own data properties, so a key such as `__proto__` can never reach a prototype.
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObj(patch)) return patch;
  const out: Record<string, unknown> = isObj(target) ? target : {};
  for (const key of Object.keys(patch)) {
    const value = patch[key];
    if (value === null) delete out[key];
    else Object.defineProperty(out, key, { value: applyMergePatch(Object.hasOwn(out, key) ? out[key] : undefined, value), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
