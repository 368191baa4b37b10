/**
 * Event ids: UUID version 7 (RFC 9562), time-ordered, from crypto.getRandomValues (works in Node,
 * browsers and service workers). Within one millisecond the 12-bit `rand_a` field is a counter
 * seeded randomly (RFC 9562 method 1), so ids from one collector sort in creation order; on
 * counter overflow the timestamp field steps ahead by 1 ms.
 */
const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const POOL_SIZE = 4096;
const pool = new Uint8Array(POOL_SIZE);
let poolPos = POOL_SIZE;

function randomBytes(n: number): number {
  if (poolPos + n > POOL_SIZE) {
    crypto.getRandomValues(pool);
    poolPos = 0;
  }
  const at = poolPos;
  poolPos += n;
  return at;
}

let lastMs = -1;
let counter = 0;

export function newEventId(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    const at = randomBytes(2);
    counter = ((pool[at]! << 8) | pool[at + 1]!) & 0x7ff; // leave headroom before overflow
  } else if (++counter > 0xfff) {
    lastMs++;
    counter = 0;
  }
  const ms = lastMs;
  const r = randomBytes(8);
  const hi = Math.floor(ms / 0x1000000); // top 24 bits of the 48-bit time
  const lo = ms % 0x1000000;
  return (
    HEX[(hi >>> 16) & 0xff]! + HEX[(hi >>> 8) & 0xff]! + HEX[hi & 0xff]! + HEX[(lo >>> 16) & 0xff]! + '-' +
    HEX[(lo >>> 8) & 0xff]! + HEX[lo & 0xff]! + '-' +
    HEX[0x70 | (counter >>> 8)]! + HEX[counter & 0xff]! + '-' +
    HEX[0x80 | (pool[r]! & 0x3f)]! + HEX[pool[r + 1]!]! + '-' +
    HEX[pool[r + 2]!]! + HEX[pool[r + 3]!]! + HEX[pool[r + 4]!]! + HEX[pool[r + 5]!]! + HEX[pool[r + 6]!]! + HEX[pool[r + 7]!]!
  );
}
