/**
 * diskFs in a child process running as an unprivileged user, behind a Vfs proxy, so permission
 * checks are real even when the tests run as root (root ignores mode bits: a folder with mode 000
 * stays readable to it). The child is started with `setpriv` as `nobody` (uid/gid 65534) and
 * answers one JSON line per call on stdin/stdout; its change events come on the same stream, in
 * order, before the answer of the call that caused them.
 *
 * `unprivilegedDisk()` answers why it cannot run (not root: no need, the caller chmods directly;
 * no setpriv; dropping privileges refused, as in a container without CAP_SETUID) instead of a
 * driver, so the contract test says why it is skipped.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmod, chown, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { VfsError, type Vfs, type VfsChangeListener, type VfsErrorCode } from '../../src/vfs/types.js';
import { compileSources } from './built-src.js';
import type { VfsDriverHandle } from '../vfs/contract.js';

const NOBODY = 65534;
const SETPRIV = ['--reuid', String(NOBODY), '--regid', String(NOBODY), '--clear-groups'];

/** null when this process can run a child as `nobody`; otherwise why not. */
export function cannotDropPrivileges(): string | null {
  if (process.getuid?.() !== 0) return 'not running as root';
  const r = spawnSync('setpriv', [...SETPRIV, process.execPath, '-e', 'process.exit(process.getuid() === 65534 ? 0 : 1)'], { encoding: 'utf8' });
  if (r.error) return `setpriv is not available (${(r.error as { code?: string }).code ?? r.error.message})`;
  if (r.status !== 0) return `uid 0 cannot drop privileges here (setpriv: ${r.stderr.trim() || `exit ${r.status}`})`;
  return null;
}

const CHILD = `
import { createInterface } from 'node:readline';
const { diskFs } = await import(process.argv[2] + '/vfs/disk.js');
const vfs = diskFs(process.argv[3]);
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
const enc = (v) => (v instanceof Uint8Array ? { bytes: Buffer.from(v).toString('base64') } : v === undefined ? null : { value: v });
const dec = (a) => (a && typeof a === 'object' && 'bytes' in a ? new Uint8Array(Buffer.from(a.bytes, 'base64')) : a);
vfs.onChange((path) => send({ change: path }));
send({ ready: vfs.root, uid: process.getuid() });
for await (const line of createInterface({ input: process.stdin })) {
  const { id, method, args } = JSON.parse(line);
  try {
    const value = await vfs[method](...args.map(dec));
    send({ id, result: enc(value) });
  } catch (err) {
    send({ id, error: { name: err?.name, code: err?.code, path: err?.path, message: String(err?.message) } });
  }
}
`;

/** The compiled sources, once per test file. */
let built: string | undefined;

/**
 * A fresh folder owned by `nobody` with diskFs running on it as `nobody`, and `denyAccess`
 * (chmod 000 by this root process). Call only when `cannotDropPrivileges()` is null.
 */
export async function unprivilegedDisk(dir: string): Promise<VfsDriverHandle> {
  if (built === undefined) {
    built = compileSources('disk-as-user');
    await writeFile(join(built, 'disk-as-user-child.mjs'), CHILD);
    await chmod(join(built, 'disk-as-user-child.mjs'), 0o644);
  }
  const script = join(built, 'disk-as-user-child.mjs');
  await chown(dir, NOBODY, NOBODY);
  const child: ChildProcess = spawn('setpriv', [...SETPRIV, process.execPath, script, built, dir], { stdio: ['pipe', 'pipe', 'inherit'] });
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  const listeners = new Set<VfsChangeListener>();
  let nextId = 0;
  let root = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => {
      const err = new Error(`disk child exited (${code})`);
      reject(err);
      for (const p of pending.values()) p.reject(err);
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = JSON.parse(line) as { ready?: string; uid?: number; change?: string; id?: number; result?: { bytes?: string; value?: unknown } | null; error?: { name: string; code: string; path: string; message: string } };
      if (m.ready !== undefined) {
        if (m.uid !== NOBODY) reject(new Error(`child runs as uid ${m.uid}`));
        root = m.ready;
        resolve();
      } else if (m.change !== undefined) {
        for (const l of listeners) l(m.change);
      } else {
        const p = pending.get(m.id!)!;
        pending.delete(m.id!);
        if (m.error) {
          const e = m.error;
          p.reject(e.name === 'VfsError' ? new VfsError(e.code as VfsErrorCode, e.path, e.message) : Object.assign(new Error(e.message), { code: e.code }));
        } else {
          const r = m.result;
          p.resolve(r == null ? undefined : r.bytes !== undefined ? new Uint8Array(Buffer.from(r.bytes, 'base64')) : r.value);
        }
      }
    });
  });
  await ready;
  const call = (method: string, ...args: unknown[]): Promise<never> =>
    new Promise((resolve, reject) => {
      const id = ++nextId;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      const wire = args.map((a) => (a instanceof Uint8Array ? { bytes: Buffer.from(a).toString('base64') } : a));
      child.stdin!.write(`${JSON.stringify({ id, method, args: wire })}\n`);
    });
  const vfs: Vfs = {
    driver: 'disk',
    exclusive: false,
    root,
    stat: (p) => call('stat', p),
    read: (p) => call('read', p),
    write: (p, d) => call('write', p, d),
    create: (p, d) => call('create', p, d),
    append: (p, d) => call('append', p, d),
    readdir: (p) => call('readdir', p),
    remove: (p, o) => (o === undefined ? call('remove', p) : call('remove', p, o)),
    mkdir: (p) => call('mkdir', p),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    vfs,
    denyAccess: (path) => chmod(join(dir, path), 0o000),
    cleanup: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin!.end();
      }),
  };
}
