/**
 * `mockyard check` reads callbacks: a HAR entry that is an OpenAPI callback of an earlier entry
 * (its URL the callback's expression resolved with that entry) has its body checked against the
 * callback's requestBody schema. The built CLI serves @readme/oas-examples callbacks.json, a real
 * node:http receiver gets the callback it sends (the good one), then the built CLI checks a HAR of
 * that exchange, that callback and a broken one.
 */
import { execFile } from 'node:child_process';
import { copyFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, expect, it } from 'vitest';
import { startCli, stopCliProcesses } from '../helpers/cli-process.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const CLI = resolve(import.meta.dirname, '../../dist/node/cli.js');
const DOC = resolve(import.meta.dirname, '../fixtures/openapi/callbacks.json');
let receiver: WebhookReceiver | undefined;

afterEach(async () => {
  await stopCliProcesses();
  await receiver?.close();
  receiver = undefined;
  await removeTempDirs();
});

const check = (cwd: string, har: string) =>
  promisify(execFile)(process.execPath, [CLI, 'check', 'callbacks.json', har], { cwd }).then(
    (r) => ({ code: 0, out: r.stdout }),
    (e: { code: number; stdout: string }) => ({ code: e.code, out: e.stdout }),
  );

it('checks a recorded callback against its requestBody schema: a good one passes, a broken one is a drift', async () => {
  const dir = await makeTempDir();
  await copyFile(DOC, join(dir, 'callbacks.json'));
  receiver = await startReceiver([202]);
  const served = await startCli(CLI, ['callbacks.json', '--port', '0'], dir);
  const hookBase = `${receiver.url}/hooks`;
  const subscribe = `${served.url}/streams?callbackUrl=${encodeURIComponent(hookBase)}`;
  const res = await fetch(subscribe, { method: 'POST' });
  const answer = await res.text();
  expect(res.status).toBe(201);
  const [sent] = await receiver.next(1);
  expect(sent!.url).toBe('/hooks/data');

  const exchange = {
    request: { method: 'POST', url: subscribe, headers: [] },
    response: { status: 201, headers: [{ name: 'content-type', value: 'application/json' }], content: { mimeType: 'application/json', text: answer } },
  };
  const callback = (text: string) => ({
    request: { method: 'POST', url: `${hookBase}/data`, headers: [{ name: 'content-type', value: 'application/json' }], postData: { mimeType: 'application/json', text } },
    response: { status: 202, headers: [], content: { mimeType: 'application/json', text: '{}' } },
  });
  const har = (entries: unknown[]) => JSON.stringify({ log: { version: '1.2', entries } });
  await writeFile(join(dir, 'good.har'), har([exchange, callback(sent!.body.toString('utf8'))]));
  await writeFile(join(dir, 'bad.har'), har([exchange, callback(sent!.body.toString('utf8')), callback('{"timestamp":"yesterday","userData":42}')]));
  // The same request before its cause: not a callback yet, so the document's paths judge it.
  await writeFile(join(dir, 'early.har'), har([callback(sent!.body.toString('utf8')), exchange]));

  const good = await check(dir, 'good.har');
  expect(good).toEqual({ code: 0, out: '2 exchange(s) checked against Callback Example: all match the document.\n' });

  const bad = await check(dir, 'bad.har');
  expect(bad.code).toBe(1);
  expect(bad.out).toBe(
    [
      `drift: POST ${hookBase}/data (callback onData of POST /streams?callbackUrl=${encodeURIComponent(hookBase)})`,
      '  request /body/timestamp: must match format "date-time"',
      '  request /body/userData: must be string',
      '3 exchange(s) checked against Callback Example: 1 drifted.',
      '',
    ].join('\n'),
  );

  const early = await check(dir, 'early.har');
  expect(early.code).toBe(1);
  expect(early.out).toContain(`drift: POST /hooks/data → 202\n  the document has no such path`);
});
