/** Bytes ↔ base64 text (HAR bodies, recordings), host-neutral (`btoa` / `atob`, chunked for large bodies). */

export function bytesToBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** The bytes of base64 text (whitespace ignored); throws on text that is not base64. */
export function base64ToBytes(text: string): Uint8Array {
  const s = atob(text.replace(/\s+/g, ''));
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}
