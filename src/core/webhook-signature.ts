/**
 * Signing an outgoing webhook's exact bytes the way receivers verify them, with WebCrypto
 * (`crypto.subtle`: Node ≥ 18, browsers, workers; no node:crypto):
 *
 *   github  `X-Hub-Signature-256: sha256=<hex HMAC-SHA256(secret, body)>` (GitHub's documented
 *           scheme, also what most "sha256 HMAC of the body" receivers read);
 *   stripe  `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`
 *           (Stripe's documented scheme: the timestamp is signed with the body).
 */
export type SignatureStyle = 'github' | 'stripe';

export const SIGNATURE_STYLES: readonly SignatureStyle[] = ['github', 'stripe'];

const encoder = new TextEncoder();

function hex(bytes: ArrayBuffer): string {
  const view = new Uint8Array(bytes);
  let out = '';
  for (let i = 0; i < view.length; i++) out += view[i]!.toString(16).padStart(2, '0');
  return out;
}

/** Hex HMAC-SHA256 of `data` with `secret`. */
export async function hmacSha256Hex(secret: string, data: Uint8Array): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return hex(await crypto.subtle.sign('HMAC', key, data as Uint8Array<ArrayBuffer>));
}

/** The header (name, value) that signs `body` in `style`; `timestamp` in unix seconds (Stripe signs it). */
export async function signatureHeader(style: SignatureStyle, secret: string, body: Uint8Array, timestamp: number): Promise<[string, string]> {
  if (style === 'stripe') {
    const prefix = encoder.encode(`${timestamp}.`);
    const signed = new Uint8Array(prefix.byteLength + body.byteLength);
    signed.set(prefix, 0);
    signed.set(body, prefix.byteLength);
    return ['Stripe-Signature', `t=${timestamp},v1=${await hmacSha256Hex(secret, signed)}`];
  }
  return ['X-Hub-Signature-256', `sha256=${await hmacSha256Hex(secret, body)}`];
}
