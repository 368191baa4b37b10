/**
 * subFs(vfs, dir): the folder `dir` of a Vfs seen as a Vfs of its own (its root is `dir`), so an
 * overlay can stack two folders of one filesystem (a scenario's `scenarios/empty-cart` over the
 * base `mocks`, src/vfs/overlay.ts). Paths are normalised here first (nothing escapes `dir`),
 * then joined; change events below `dir` are passed on relative to it.
 */
import { joinSafe, normalizeVfsPath } from './path.js';
import type { Vfs } from './types.js';

export function subFs(vfs: Vfs, dir: string): Vfs {
  const root = normalizeVfsPath(dir);
  if (root === '') return vfs;
  const at = (path: string) => joinSafe(root, normalizeVfsPath(path));
  const below = `${root}/`;
  return {
    driver: vfs.driver,
    exclusive: vfs.exclusive,
    root: `${vfs.root.replace(/\/$/, '')}/${root}`,
    stat: (p) => vfs.stat(at(p)),
    read: (p) => vfs.read(at(p)),
    write: (p, d) => vfs.write(at(p), d),
    create: (p, d) => vfs.create(at(p), d),
    append: (p, d) => vfs.append(at(p), d),
    readdir: (p) => vfs.readdir(at(p)),
    remove: (p, o) => vfs.remove(at(p), o),
    mkdir: (p) => vfs.mkdir(at(p)),
    onChange(listener) {
      return vfs.onChange((p) => {
        if (p === root) listener('');
        else if (p.startsWith(below)) listener(p.slice(below.length));
        else if (root.startsWith(`${p}/`) || p === '') listener(''); // a parent of dir changed
      });
    },
    watch: vfs.watch ? (p, report) => vfs.watch!(at(p), report) : undefined,
  };
}
