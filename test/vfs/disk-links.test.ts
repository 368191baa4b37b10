/**
 * The disk driver's link rule (src/vfs/disk.ts): a path whose real path leaves the real root is
 * refused with EACCES by every method; links that stay inside work as their targets. Real links
 * in real temp dirs.
 */
import { mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diskFs } from '../../src/vfs/disk.js';
import { isVfsError, type Vfs } from '../../src/vfs/types.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

afterAll(removeTempDirs);

const text = (b: Uint8Array) => new TextDecoder().decode(b);

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    return isVfsError(err) ? err.code : `other: ${(err as Error).message}`;
  }
}

/** <parent>/secret/canary.json outside; <parent>/mocks is the root, with links in it. */
async function layout() {
  const parent = await makeTempDir();
  const root = join(parent, 'mocks');
  await mkdir(join(root, 'users'), { recursive: true });
  await mkdir(join(parent, 'secret'));
  await writeFile(join(parent, 'secret', 'canary.json'), '{"canary":true}');
  await writeFile(join(root, 'users', '1.json'), '{"id":1}');
  await symlink('../secret', join(root, 'link')); // folder link leading outside
  await symlink(join(parent, 'secret', 'canary.json'), join(root, 'leak.json')); // file link, absolute
  await symlink('../secret/new.json', join(root, 'dangling.json')); // points outside, target absent
  await symlink('users', join(root, 'people')); // folder link inside
  await symlink('users/1.json', join(root, 'alias.json')); // file link inside
  await symlink('loop-b', join(root, 'loop-a'));
  await symlink('loop-a', join(root, 'loop-b'));
  return { parent, root, vfs: diskFs(root) };
}

async function outsideUntouched(parent: string) {
  expect((await readdir(join(parent, 'secret'))).sort()).toEqual(['canary.json']);
  expect(await readFile(join(parent, 'secret', 'canary.json'), 'utf8')).toBe('{"canary":true}');
}

describe('diskFs: links leading outside the root are refused by every method', () => {
  const escaping = ['link/canary.json', 'leak.json', 'link', 'dangling.json', 'link/sub/x.json', 'loop-a'];

  it('stat, read, readdir, write, create, append, mkdir, remove → EACCES; nothing outside changes', async () => {
    const { parent, root, vfs } = await layout();
    for (const p of escaping) {
      const calls: Record<string, () => Promise<unknown>> = {
        stat: () => vfs.stat(p),
        read: () => vfs.read(p),
        write: () => vfs.write(p, '{"pwned":1}'),
        create: () => vfs.create(p, '{"pwned":1}'),
        append: () => vfs.append(p, 'x'),
        remove: () => vfs.remove(p, { recursive: true }),
      };
      for (const [name, call] of Object.entries(calls)) {
        expect(await codeOf(call()), `${name} ${p}`).toBe('EACCES');
      }
    }
    expect(await codeOf(vfs.readdir('link'))).toBe('EACCES');
    expect(await codeOf(vfs.mkdir('link/made'))).toBe('EACCES');
    await outsideUntouched(parent);
    // The links themselves are still there (a refused remove removes nothing).
    expect((await readdir(root)).sort()).toEqual(['alias.json', 'dangling.json', 'leak.json', 'link', 'loop-a', 'loop-b', 'people', 'users']);
    expect(await codeOf(vfs.read('loop-a'))).toBe('EACCES');
  });

  it('messages name the relative path, never an absolute one', async () => {
    const { parent, vfs } = await layout();
    try {
      await vfs.read('link/canary.json');
      expect.unreachable();
    } catch (err) {
      expect((err as Error).message).toBe('Link leads outside the root: link/canary.json');
      expect((err as Error).message).not.toContain(parent);
    }
  });
});

describe('diskFs: links that stay inside work as their targets', () => {
  it('read, stat and write reach the target; readdir gives the target kind; remove removes the link', async () => {
    const { root, vfs } = await layout();
    expect(text(await vfs.read('people/1.json'))).toBe('{"id":1}');
    expect(text(await vfs.read('alias.json'))).toBe('{"id":1}');
    expect(await vfs.stat('people')).toMatchObject({ kind: 'dir' });
    await vfs.write('alias.json', '{"id":1,"v":2}');
    expect(await readFile(join(root, 'users', '1.json'), 'utf8')).toBe('{"id":1,"v":2}');
    await vfs.write('people/2.json', '{"id":2}');
    expect(await readFile(join(root, 'users', '2.json'), 'utf8')).toBe('{"id":2}');
    await vfs.append('people/log.txt', 'a');
    expect(await readFile(join(root, 'users', 'log.txt'), 'utf8')).toBe('a');
    const listing = await vfs.readdir('');
    expect(listing).toContainEqual({ name: 'people', kind: 'dir' });
    expect(listing).toContainEqual({ name: 'alias.json', kind: 'file' });
    expect(listing).toContainEqual({ name: 'link', kind: 'file' }); // outside: listed, refused on use
    expect(listing).toContainEqual({ name: 'loop-a', kind: 'file' }); // a loop: listed, refused on use
    await symlink('users/none.json', join(root, 'nowhere.json'));
    expect(await vfs.stat('nowhere.json')).toBeNull();
    expect((await vfs.readdir('')).map((e) => e.name)).not.toContain('nowhere.json'); // absent, as stat says
    expect(await vfs.remove('alias.json')).toBe(true);
    expect(await vfs.stat('alias.json')).toBeNull();
    expect(await readFile(join(root, 'users', '1.json'), 'utf8')).toBe('{"id":1,"v":2}'); // the target stays
  });

  it('a dangling link that points inside lets a write create its target', async () => {
    const { root, vfs } = await layout();
    await symlink('users/3.json', join(root, 'three.json'));
    expect(await vfs.stat('three.json')).toBeNull();
    await vfs.write('three.json', '{"id":3}');
    expect(await readFile(join(root, 'users', '3.json'), 'utf8')).toBe('{"id":3}');
  });

  it('the root may itself be a link: the boundary is its real path', async () => {
    const { parent } = await layout();
    await symlink('mocks', join(parent, 'root-link'));
    const vfs: Vfs = diskFs(join(parent, 'root-link'));
    expect(text(await vfs.read('users/1.json'))).toBe('{"id":1}');
    expect(text(await vfs.read('people/1.json'))).toBe('{"id":1}');
    expect(await codeOf(vfs.read('link/canary.json'))).toBe('EACCES');
    await vfs.write('new.json', '{}');
    expect(await readFile(join(parent, 'mocks', 'new.json'), 'utf8')).toBe('{}');
  });

  it('a root created on first write still gets the rule', async () => {
    const parent = await makeTempDir();
    const vfs = diskFs(join(parent, 'later'));
    expect(await vfs.stat('x.json')).toBeNull();
    await vfs.write('x.json', '{}');
    await mkdir(join(parent, 'out'));
    await symlink('../out', join(parent, 'later', 'out'));
    expect(await codeOf(vfs.write('out/y.json', '{}'))).toBe('EACCES');
    expect(await readdir(join(parent, 'out'))).toEqual([]);
  });
});
