/**
 * ISO-8601 date-times with an explicit UTC offset (`2026-01-02T03:04:05.678Z`,
 * `2026-01-02T05:04:05+02:00`, `…+0200`), parsed to epoch milliseconds without Date.parse (whose
 * accepted forms differ between engines). A time without an offset is ambiguous (local time of
 * which machine?) and is refused, as are out-of-range fields (`2026-02-30`, `25:00`).
 * Fractions beyond milliseconds are truncated.
 */
const ISO = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?([Zz]|([+-])(\d{2}):?(\d{2}))$/;
/** Years 0000–9999 in UTC: what ISO-8601 without expansion can name (and storage names files by). */
const MIN_MS = -62167219200000; // 0000-01-01T00:00:00.000Z
const MAX_MS = 253402300799999; // 9999-12-31T23:59:59.999Z
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Epoch ms, or a reason why the text is not an accepted timestamp. */
export function parseTimestamp(text: unknown): number | string {
  if (typeof text !== 'string') return text === undefined ? 'missing timestamp' : 'timestamp must be a string';
  const m = ISO.exec(text);
  if (!m) return 'timestamp is not an ISO-8601 date-time with a UTC offset';
  const y = +m[1]!, mo = +m[2]!, d = +m[3]!, h = +m[4]!, mi = +m[5]!, s = m[6] ? +m[6] : 0;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const dim = mo === 2 && leap ? 29 : DAYS[mo - 1];
  if (mo < 1 || mo > 12 || d < 1 || d > dim! || h > 23 || mi > 59 || s > 59) return 'timestamp is out of range';
  const ms = m[7] ? +m[7].slice(0, 3).padEnd(3, '0') : 0;
  let offset = 0;
  if (m[9]) {
    const oh = +m[10]!, om = +m[11]!;
    if (oh > 23 || om > 59) return 'timestamp offset is out of range';
    offset = (m[9] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000;
  }
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d); // setUTCFullYear keeps years 0..99 literal (Date.UTC would not)
  date.setUTCHours(h, mi, s, ms);
  const t = date.getTime() - offset;
  // An offset can push year 0000 or 9999 out of range (`0000-01-01T00:30:00+01:00`).
  if (t < MIN_MS || t > MAX_MS) return 'timestamp is out of range (years 0000 to 9999 in UTC)';
  return t;
}
