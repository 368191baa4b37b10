// Types for the one module of json-merge-patch the engine imports (its @types cover the index only).
declare module 'json-merge-patch/lib/apply.js' {
  /** RFC 7396: applies `patch` to `target` (mutating it when it is an object) and returns the result. */
  export default function apply(target: unknown, patch: unknown): unknown;
}
