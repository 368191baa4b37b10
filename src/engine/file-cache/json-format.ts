/**
 * Serialising documents back to a file keeps the file's own style: a file written compact stays
 * compact, a pretty one keeps its indentation (spaces or tabs, as detected on its second line).
 */
const encoder = new TextEncoder();

/** The indentation of a JSON text: `undefined` (compact), a number of spaces, or a tab. */
export function detectIndent(bytes: Uint8Array): string | number | undefined {
  const nl = bytes.indexOf(10);
  if (nl === -1) return undefined;
  let i = nl + 1;
  if (bytes[i] === 9) return '\t';
  let n = 0;
  while (bytes[i + n] === 32) n++;
  return n > 0 ? n : undefined;
}

export function serializeJson(value: unknown, indent: string | number | undefined): Uint8Array {
  const text = JSON.stringify(value, null, indent) as string | undefined;
  // Backstop: never turn "no value" into an empty file.
  if (text === undefined) throw new TypeError('Cannot store a document without a JSON value');
  return encoder.encode(indent !== undefined ? `${text}\n` : text);
}
