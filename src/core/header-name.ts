/** THE rule for an HTTP header name (an RFC 9110 token), for names read from options and files. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Whether `name` can be sent as a header name. */
export function isHeaderName(name: string): boolean {
  return TOKEN.test(name);
}
