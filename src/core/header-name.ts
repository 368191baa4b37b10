/**
 * THE rules for what HTTP can carry in a header, for names and values read from options and
 * files (recordings, HAR logs): a name is an RFC 9110 token; a value (or a reason phrase) holds
 * tabs and visible bytes only — no CR, LF, NUL or other control character, nothing past U+00FF
 * (a header is bytes; Node's http refuses anything else when it writes the head).
 */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const FIELD_TEXT = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Whether `name` can be sent as a header name. */
export function isHeaderName(name: string): boolean {
  return TOKEN.test(name);
}

/** Whether `value` can be sent as a header value or a reason phrase. */
export function isHeaderValue(value: string): boolean {
  return FIELD_TEXT.test(value);
}
