/** `call(page, path, { method, body })`: a JSON `fetch` made by the page itself (so a service worker answers it). */
import type { Page } from 'playwright-core';

export function call(page: Page, path: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; body: any }> {
  return page.evaluate(async ([p, i]) => {
    const res = await fetch(p, { method: i.method, headers: i.body === undefined ? {} : { 'content-type': 'application/json' }, body: i.body === undefined ? undefined : JSON.stringify(i.body) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }, [path, init] as const);
}
