/**
 * Configuration of the PostgreSQL store: `tracker.storage.postgres`, `storage.store`,
 * `--tracker-db URL`, `MOCKYARD_TRACKER_DB`; validation names the option; the store's code stays
 * out of src/tracker (host-neutral) and out of what the Node entry loads at start-up.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildConfig } from '../../../src/node/cli.js';
import { postgresStore } from '../../../src/node/postgres/index.js';
import { createCollector } from '../../../src/tracker/collector.js';
import { nodeRuntime } from '../../../src/node/runtime.js';
import { makeTempDir, removeTempDirs } from '../../helpers/temp-dir.js';

afterAll(removeTempDirs);
const repo = resolve(import.meta.dirname, '..', '..', '..');

describe('tracker.storage.postgres', () => {
  it('is validated at start-up, naming the option', () => {
    expect(() => postgresStore('mysql://x')).toThrow(/option "postgresStore" must be a postgres:\/\/ or postgresql:\/\/ URL/);
    expect(() => postgresStore({ url: 'postgres://h/db', table: 'Bad-Name' })).toThrow(/"postgresStore\.table" must be a lower-case SQL identifier/);
    expect(() => postgresStore({ url: 'postgres://h/db', client: {} })).toThrow(/exactly one of url and client/);
    expect(() => postgresStore({ client: { query() {} } })).toThrow(/"postgresStore\.client" must be a postgres\.js sql instance or a PGlite database/);
    expect(() => postgresStore({ url: 'postgres://h/db', pool: 3 } as never)).toThrow(/"postgresStore\.pool" is not an option/);
  });

  it('needs the Node entry, and excludes the embedded storage options', async () => {
    expect(() => createCollector({ appId: 'x', storage: { postgres: 'postgres://h/db' } })).toThrow(/"tracker\.storage\.postgres" needs the Node entry/);
    expect(() => createCollector({ appId: 'x', storage: { postgres: 'http://h/db' } }, nodeRuntime)).toThrow(/"tracker\.storage\.postgres" must be a postgres:\/\//);
    expect(() => createCollector({ appId: 'x', storageDir: '/tmp/x', storage: { postgres: 'postgres://h/db' } }, nodeRuntime)).toThrow(/cannot be combined with storage\.fs, storage\.dir or storageDir/);
    expect(() => createCollector({ appId: 'x', storage: { store: 42 as never } })).toThrow(/"tracker\.storage\.store" must be a store factory/);
  });
});

describe('--tracker-db and MOCKYARD_TRACKER_DB', () => {
  it('turn the collector on with PostgreSQL storage, the flag winning over the environment and the config file', async () => {
    const root = await makeTempDir();
    const { config, tracker } = await buildConfig(['--tracker-db', 'postgres://u:p@db:5432/events'], root, {});
    expect(tracker).toBe(true);
    // The ingest spool is on by default, in a folder under the working directory.
    const spool = { dir: join(root, '.mockyard', 'tracker-spool') };
    expect(config.tracker).toEqual({ appId: 'mockyard', storage: { postgres: 'postgres://u:p@db:5432/events', spool } });
    const fromEnv = await buildConfig([], root, { MOCKYARD_TRACKER_DB: 'postgresql://db/x' });
    expect(fromEnv.config.tracker).toEqual({ appId: 'mockyard', storage: { postgres: 'postgresql://db/x', spool } });
    const both = await buildConfig(['--tracker-db', 'postgres://flag/db'], root, { MOCKYARD_TRACKER_DB: 'postgres://env/db' });
    expect((both.config.tracker as any).storage.postgres).toBe('postgres://flag/db');
    const none = await buildConfig([], root, {});
    expect(none.tracker).toBe(false);
    expect(none.config.tracker).toBeUndefined();
  });

  it("keeps the config file's spool settings (a relative dir against the working directory; false turns it off)", async () => {
    const root = await makeTempDir();
    await writeFile(join(root, 'mockyard.config.mjs'), `export default { tracker: { appId: 'a', storage: { spool: { dir: 'spool', maxBytes: 1000 } } } };`);
    const { config } = await buildConfig(['--tracker-db', 'postgres://db/x'], root, {});
    expect(config.tracker).toEqual({ appId: 'a', storage: { postgres: 'postgres://db/x', spool: { dir: join(root, 'spool'), maxBytes: 1000 } } });
    await writeFile(join(root, 'mockyard.config.mjs'), `export default { tracker: { appId: 'a', storage: { spool: false } } };`);
    expect((await buildConfig(['--tracker-db', 'postgres://db/x'], root, {})).config.tracker).toEqual({ appId: 'a', storage: { postgres: 'postgres://db/x', spool: false } });
    await expect(buildConfig(['--tracker-db-wait', '5'], root, {})).rejects.toThrow(/--tracker-db-wait needs --tracker-db/);
    await expect(buildConfig(['--tracker-db', 'postgres://db/x', '--tracker-db-wait', 'soon'], root, {})).rejects.toThrow(/--tracker-db-wait must be a number >= 0/);
  });

  it('a URL that is not postgres:// is a usage error (the password is not echoed)', async () => {
    const root = await makeTempDir();
    await expect(buildConfig(['--tracker-db', 'mysql://user:secret@db/x'], root, {})).rejects.toThrow(/--tracker-db must be a postgres:\/\/ URL \(got "mysql:\/\/…@db\/x"\)/);
    await expect(buildConfig([], root, { MOCKYARD_TRACKER_DB: 'nope' })).rejects.toThrow(/MOCKYARD_TRACKER_DB must be a postgres:\/\/ URL/);
  });
});

describe('module boundaries', () => {
  const files = (dir: string): string[] => readdirSync(join(repo, dir), { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? files(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : []));

  it('nothing under src/tracker imports src/node, postgres or PGlite', () => {
    for (const f of files('src/tracker')) {
      const text = readFileSync(join(repo, f), 'utf8');
      expect(text, f).not.toMatch(/from '\.\.\/node\/|import\('\.\.\/node\/|from 'postgres'|from '@electric-sql\/pglite'/);
    }
  });

  it('the Node entry reaches the store, the schema and the driver only through dynamic import()', () => {
    const index = readFileSync(join(repo, 'src/node/postgres/index.ts'), 'utf8');
    expect(index).toMatch(/import\('\.\/store\.js'\)/);
    expect(index).not.toMatch(/from '\.\/store\.js'|from '\.\/schema\.js'|from 'postgres'/);
    const client = readFileSync(join(repo, 'src/node/postgres/sql-client.ts'), 'utf8');
    expect(client).not.toMatch(/^import (?!type )[^;]*from 'postgres'/m);
  });
});
