/** json-server 0.17's Link header names each page as URLSearchParams serialises the request's URL with `_page` set. */
import { describe, expect, it } from 'vitest';
import { linkHeader } from '../../../src/engine/collections/json-server-query.js';

/** The rule written plainly: one URL per link, `_page` set through URLSearchParams. */
function plain(requestUrl: string, page: { page: number; limit: number }, total: number): string | undefined {
  const start = (page.page - 1) * page.limit;
  const shown = Math.max(0, Math.min(total, page.page * page.limit) - start);
  if (shown === 0 || shown === total) return undefined;
  const at = (n: number) => {
    const url = new URL(requestUrl);
    url.searchParams.set('_page', String(n));
    return url.href;
  };
  const links = [`<${at(1)}>; rel="first"`];
  if (page.page > 1) links.push(`<${at(page.page - 1)}>; rel="prev"`);
  if (page.page * page.limit < total) links.push(`<${at(page.page + 1)}>; rel="next"`);
  links.push(`<${at(Math.ceil(total / page.limit))}>; rel="last"`);
  return links.join(', ');
}

const urls = [
  'http://h.test/api/users?_page=2&_limit=5',
  'http://h.test/api/users?role=admin&age_gte=30&_page=6&_limit=20',
  'http://h.test/api/users?_limit=5&_page=2&_page=9&q=a%20b+c',
  'http://h.test:8080/api/us%C3%A9rs?name=%C3%A9t%C3%A9&tags:in=a,b&x=%2F&_page=2&_limit=5',
  'http://h.test/api/users?_page=2&_limit=5&note=MOCKYARDPAGEMARK',
  'http://h.test/api/users?_page=2&_limit=5&empty=&flag',
  'http://127.0.0.1:3000/api/users10k?role=admin&age_gte=30.5&_page=6&_limit=20',
  'http://127.0.0.1:80/api/users?_page=2&_limit=5',
  'https://h.test:443/api/users?_page=2&_limit=5',
  'http://h.test:8080/?_page=2&_limit=5',
  'http://h.test?_page=2&_limit=5',
  'http://H.Test/api/users?_page=2&_limit=5',
  'http://h.test/api/./users/../users?_page=2&_limit=5',
  'http://h.test/api/users/?_page=2&_limit=5&a*b=c.d-e_f',
  'http://h.test/api/users?_page=2&&_limit=5',
  'http://h.test/api/users?=x&_page=2&_limit=5',
  'http://h.test/api/users?_page=2&_limit=5&t=~x',
  'http://h.test/api/users?_page=2&_limit=5&_page=3',
  'http://h.test/api/users?_pages=1&_page=2&_limit=5',
  'http://h.test/api/users?_limit=5',
  'http://[::1]:3000/api/users?_page=2&_limit=5',
];

describe('linkHeader', () => {
  it('gives what setting _page on each URL gives', () => {
    for (const url of urls) {
      for (const [page, limit, total] of [[2, 5, 23], [1, 5, 23], [5, 5, 23], [6, 20, 816], [3, 10, 30]] as const) {
        expect(linkHeader(url, { page, limit }, total), `${url} ${page}/${limit}/${total}`).toBe(plain(url, { page, limit }, total));
      }
    }
  });
});
