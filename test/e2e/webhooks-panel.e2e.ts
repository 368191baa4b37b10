/**
 * The devtools Webhooks tab in real Chromium on a node host serving a 3.1 document with
 * `webhooks` (@readme/oas-examples webhooks.json): it lists `newPet` with its generated payload,
 * the payload is edited, a target URL typed, and "Send" delivers the edited body to a real
 * node:http receiver (through the admin routes: PUT webhooks/target, POST webhooks/send).
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/node/serve.js';
import { memoryFs } from '../../src/vfs/memory.js';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { launchChromium, type Browser } from './helpers/chromium.js';

let browser: Browser;
let server: RunningServer;
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startReceiver([200]);
  const doc = JSON.parse(await readFile(new URL('../fixtures/openapi/webhooks-3.1.json', import.meta.url), 'utf8'));
  server = await serve({ port: 0, host: '127.0.0.1', logLevel: 'silent', mock: { endpointPrefix: '/api', fs: memoryFs({}), openapi: doc } });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await receiver?.close();
});

describe('devtools page: Webhooks tab', () => {
  it("lists the document's webhooks and sends one, edited, to the target typed in", async () => {
    const page = await browser.context.newPage();
    await page.goto(`${server.url}/_mockyard/#webhooks`);
    const item = page.locator('[data-webhook="POST newPet"]');
    await item.waitFor();
    // Every operation of each webhook is listed (newPet has a POST and a DELETE).
    expect(await page.locator('[data-webhook]').evaluateAll((els) => els.map((e) => e.getAttribute('data-webhook')))).toEqual(['POST newPet', 'DELETE newPet']);
    const box = item.locator('textarea');
    const generated = JSON.parse(await box.inputValue());
    expect(typeof generated).toBe('object');
    await box.fill(JSON.stringify({ ...generated, name: 'edited in the page' }));
    await page.locator('[data-testid=webhooks-target]').fill(`${receiver.url}/hooks/pets`);
    await page.locator('[data-testid=send-POST-newPet]').click();
    const [hook] = await receiver.next(1);
    expect(hook!.method).toBe('POST');
    expect(hook!.url).toBe('/hooks/pets');
    expect((hook!.json() as { name: string }).name).toBe('edited in the page');
    await expect.poll(() => page.locator('[data-testid=webhooks-note]').textContent()).toContain('POST newPet queued');
    // The target is kept by the engine (PUT webhooks/target).
    expect((await (await fetch(`${server.url}/_mockyard/api/webhooks`)).json()).target).toBe(`${receiver.url}/hooks/pets`);
  });
});
