/** THE test for a JSON object (a parsed body, a document's node, a stored item): not null, not an array. */
export const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
