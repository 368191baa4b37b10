/**
 * Migration from json-graphql-server: its README's queries (and a few more: relations both
 * ways, filters, mutations) run against the mockyard CLI serving the same db.json, and answer
 * exactly what json-graphql-server 3.3.2 answered (test/fixtures/json-graphql-server/, captured
 * with capture.mjs; the version is in answers.json).
 */
import { copyFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, stopClis } from '../../helpers/cli-run.js';
import { makeTempDir, removeTempDirs } from '../../helpers/temp-dir.js';

const fixtures = join(import.meta.dirname, '../../fixtures/json-graphql-server');

interface Case {
  name: string;
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
  status: number;
  answer: unknown;
}

let url: string;
let peer: { peer: string; version: string; cases: Case[] };

beforeAll(async () => {
  peer = JSON.parse(await readFile(join(fixtures, 'answers.json'), 'utf8'));
  const dir = await makeTempDir();
  await copyFile(join(fixtures, 'db.json'), join(dir, 'db.json'));
  const cli = await runCli(['db.json', '--port', '0', '--host', '127.0.0.1'], dir);
  url = cli.server!.url;
});

afterAll(async () => {
  await stopClis();
  await removeTempDirs();
});

describe(`mockyard db.json answers as json-graphql-server does`, () => {
  it('the fixtures are the peer\'s, version noted', () => {
    expect(peer.peer).toBe('json-graphql-server');
    expect(peer.version).toBe('3.3.2');
    expect(peer.cases.length).toBeGreaterThan(20);
  });

  it('every README query, in order (mutations included), gets the same answer', async () => {
    for (const c of peer.cases) {
      const res = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: c.query, variables: c.variables, operationName: c.operationName }),
      });
      expect({ name: c.name, status: res.status, answer: await res.json() }).toEqual({ name: c.name, status: c.status, answer: c.answer });
    }
  });
});
