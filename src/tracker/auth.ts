/**
 * API key checks in constant time (no node:crypto: works in every host). The comparison walks
 * the longer of the two encodings and accumulates differences with XOR, so its duration does not
 * depend on where the first mismatch is; a length difference is folded into the result.
 */
const encoder = new TextEncoder();

export function constantTimeEqual(expected: Uint8Array, given: string): boolean {
  const g = encoder.encode(given);
  const n = Math.max(expected.length, g.length);
  let diff = expected.length ^ g.length;
  for (let i = 0; i < n; i++) diff |= (expected[i] ?? 0) ^ (g[i] ?? 0);
  return diff === 0;
}

/** A checker for one configured key; `undefined` key → everything passes. */
export function keyChecker(apiKey: string | undefined): (given: string | null | undefined) => boolean {
  if (apiKey === undefined) return () => true;
  const expected = encoder.encode(apiKey);
  return (given) => typeof given === 'string' && constantTimeEqual(expected, given);
}
