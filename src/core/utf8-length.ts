/**
 * UTF-8 byte length of a string without encoding it (a lone surrogate counts 3 bytes, as U+FFFD,
 * like TextEncoder). Its own module so that code measuring text (the tracker client in the page)
 * does not pull in FastResponse.
 */
export function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2; // a surrogate pair: 2 units, 4 bytes
      i++;
    } else n += 2;
  }
  return n;
}
