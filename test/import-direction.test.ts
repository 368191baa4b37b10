/**
 * Every import in src/ points down a floor, and no files import each other in a circle
 * (ARCHITECTURE.md, "Floors"). A small scan of the import graph rather than a tool such as
 * dependency-cruiser: the rule is one table below, the scan reads every `import … from`,
 * `export … from`, side-effect `import '…'` and `import('…')` (type-only ones too: a type that
 * points up is a design that points up) with comments and strings left out, and it runs in the
 * suite in well under a second without a dependency of its own.
 *
 * A file may import files of its own folder, and of folders on LOWER floors; never a folder on
 * its own floor (siblings stay independent: engine and tracker, node and msw and test), never one
 * above. Files at the root of src/ are placed on a floor one by one.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles, tokens } from './helpers/source-files.js';

const SRC = resolve(import.meta.dirname, '../src');

/** The floors, lowest first. A top-level folder of src/ (or a root file) sits on exactly one. */
export const FLOORS: readonly (readonly string[])[] = [
  ['core'],
  ['vfs'],
  ['engine', 'tracker'],
  ['devtools', 'contract'],
  ['host', 'define-config.ts'],
  ['node', 'msw', 'test', 'fetch', 'playwright'],
  ['sw', 'test/index.node.ts'],
  ['browser', 'storybook'],
  ['index.ts'],
  ['index.node.ts'],
];

/** Where Node-only packages may be imported (everything else runs in every host). */
const NODE_ONLY = /^(node:|ws$|busboy$|undici$|postgres$)/;
const NODE_ALLOWED = (file: string) => file.startsWith('node/') || file === 'vfs/disk.ts' || file === 'vfs/disk-watch.ts';

const IMPORT =
  /\b(?:import|export)\s+(?:type\s+)?(?:\*(?:\s+as\s+\w+)?|\{[^}]*\}|\w+(?:\s*,\s*(?:\{[^}]*\}|\*\s+as\s+\w+))?)\s*from\s*'#(\d+)'|\bimport\s*'#(\d+)'|\bimport\s*\(\s*'#(\d+)'\s*\)/g;

/** Specifiers a file imports. */
export function specifiers(source: string): string[] {
  const { code, strings } = tokens(source);
  return [...code.matchAll(IMPORT)].map((m) => strings[Number(m[1] ?? m[2] ?? m[3])]!);
}

/** A file (relative to src/, `/`-separated) → the files of ours it imports, and the packages. */
export function importGraph(src = SRC): Map<string, { files: string[]; packages: string[] }> {
  const graph = new Map<string, { files: string[]; packages: string[] }>();
  for (const path of sourceFiles(src)) {
    const files: string[] = [];
    const packages: string[] = [];
    for (const spec of specifiers(readFileSync(path, 'utf8'))) {
      if (!spec.startsWith('.')) {
        packages.push(spec);
        continue;
      }
      const target = relative(src, resolve(dirname(path), spec)).split('\\').join('/');
      files.push(target.replace(/\.js$/, '.ts'));
    }
    graph.set(relative(src, path).split('\\').join('/'), { files, packages });
  }
  // `.tsx` files are imported as `.js` too.
  for (const node of graph.values()) node.files = node.files.map((f) => (graph.has(f) ? f : graph.has(`${f}x`) ? `${f}x` : f));
  return graph;
}

const placedAlone = new Set(FLOORS.flat().filter((u) => u.includes('/')));
const unitOf = (file: string) => (placedAlone.has(file) || !file.includes('/') ? file : file.slice(0, file.indexOf('/')));
const floorOf = (unit: string) => FLOORS.findIndex((floor) => floor.includes(unit));

/** Imports that point up or sideways, imports of Node-only packages outside the node host, files on no floor. */
export function floorViolations(graph = importGraph()): string[] {
  const out: string[] = [];
  for (const [file, { files, packages }] of graph) {
    const from = unitOf(file);
    const fromFloor = floorOf(from);
    if (fromFloor === -1) out.push(`${file}: src/${from} is on no floor (add it to FLOORS in test/import-direction.test.ts and to ARCHITECTURE.md)`);
    for (const target of files) {
      const to = unitOf(target);
      if (to === from) continue;
      const toFloor = floorOf(to);
      if (toFloor > fromFloor) out.push(`${file} → ${target}: imports upward (${from} is on floor ${fromFloor}, ${to} on floor ${toFloor})`);
      else if (toFloor === fromFloor) out.push(`${file} → ${target}: imports a sibling on its own floor (${from} and ${to} are both on floor ${fromFloor})`);
    }
    for (const p of packages) if (NODE_ONLY.test(p) && !NODE_ALLOWED(file)) out.push(`${file} → ${p}: a Node-only import outside src/node and the disk driver`);
  }
  return out;
}

/** The files a user can reach: the package's entries (exports, bin), the devtools page's bundle. */
export function entryFiles(root = resolve(SRC, '..')): string[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown>; bin: Record<string, string> };
  const targets: string[] = [...Object.values(pkg.bin)];
  const collect = (v: unknown) => {
    if (typeof v === 'string') targets.push(v);
    else if (v && typeof v === 'object') for (const [k, w] of Object.entries(v)) if (k !== 'types') collect(w);
  };
  collect(pkg.exports);
  const files = targets.filter((t) => t.startsWith('./dist/') && t.endsWith('.js')).map((t) => t.slice('./dist/'.length).replace(/\.js$/, '.ts'));
  // Bundled by scripts/build-devtools-page.mjs, not imported: its module is the page's entry.
  return [...new Set([...files, 'devtools/page/main.tsx'])];
}

/** Files no entry reaches through imports of any kind: dead code, or an entry package.json lacks. */
export function unreachableFiles(graph = importGraph(), entries = entryFiles()): string[] {
  const seen = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file) || !graph.has(file)) return;
    seen.add(file);
    for (const target of graph.get(file)!.files) walk(target);
  };
  for (const e of entries) walk(e);
  return [...graph.keys()].filter((f) => !seen.has(f)).sort();
}

/** The circles among files: strongly connected components of more than one file (Tarjan). */
export function fileCircles(graph = importGraph()): string[][] {
  let index = 0;
  const stack: string[] = [];
  const on = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const circles: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v)!.files) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const circle: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        circle.push(w);
      } while (w !== v);
      if (circle.length > 1 || graph.get(v)!.files.includes(v)) circles.push(circle.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return circles;
}

/**
 * The engine's own floors (src/engine; ARCHITECTURE.md, "The engine's floors"), lowest first. A unit
 * is a folder of src/engine, or a file at its root placed one by one. A unit imports units of
 * lower floors, and units of its own floor only where the floor allows it and no circle forms
 * (the contract's, the services' and the assembly's parts build on one another); the layers are
 * independent: a layer never imports another layer, what two need goes a floor down.
 */
export const ENGINE_FLOORS: readonly { name: string; independent?: boolean; units: readonly string[] }[] = [
  // The Layer type and the walk, the request context, the shared types (the store's contract, the fault spec).
  { name: 'contract', units: ['pipeline', 'context.ts', 'types.ts', 'define-handler.ts', 'delay.ts', 'sleeper.ts', 'body-schema.ts', 'path-params.ts', 'cors.ts', 'operation-symbol.ts', 'page-write.ts', 'fault-spec.ts', 'selection', 'handler-api', 'store-contract'] },
  // What every layer uses: the services object (the per-file queue, the logger, the runtime's parts), the
  // file cache, the store, data generation, the OpenAPI document's model, the recordings' format, the upstream transport.
  { name: 'services', units: ['services.ts', 'runtime.ts', 'file-queue.ts', 'file-cache', 'store', 'schema-faker', 'openapi-document', 'recordings', 'upstream'] },
  // One folder per surface.
  { name: 'layers', independent: true, units: ['handlers', 'files', 'faults', 'openapi', 'openapi-backend', 'json-server', 'collections', 'graphql', 'replay', 'proxy', 'streams', 'static', 'ws', 'preset-hints', 'webhooks'] },
  // The ordered list, createMockApi, the option list; scenarios and sessions (pipelines of their own).
  { name: 'assembly', units: ['layers.ts', 'public-types.ts', 'create-mock-api.ts', 'options.ts', 'mock-api-options.ts', 'scenarios', 'sessions', 'scenario-pipelines.ts', 'scenario-sources.ts', 'session-set.ts', 'route-overrides.ts', 'mock-fs.ts', 'resource-map.ts', 'is-mock-api.ts'] },
];

const engineUnitOf = (file: string) => {
  const rest = file.slice('engine/'.length);
  return rest.includes('/') ? rest.slice(0, rest.indexOf('/')) : rest;
};
const engineFloorOf = (unit: string) => ENGINE_FLOORS.findIndex((f) => f.units.includes(unit));

/** Imports between the engine's units that break its floors (type-only ones too), and circles among its units. */
export function engineFloorViolations(graph = importGraph()): string[] {
  const out: string[] = [];
  const edges = new Map<string, Set<string>>();
  for (const [file, { files }] of graph) {
    if (!file.startsWith('engine/')) continue;
    const from = engineUnitOf(file);
    const fromFloor = engineFloorOf(from);
    if (fromFloor === -1) out.push(`${file}: src/engine/${from} is on no engine floor (add it to ENGINE_FLOORS in test/import-direction.test.ts and to ARCHITECTURE.md)`);
    for (const target of files) {
      if (!target.startsWith('engine/')) continue;
      const to = engineUnitOf(target);
      if (to === from) continue;
      const toFloor = engineFloorOf(to);
      if (toFloor === -1) continue;
      if (toFloor > fromFloor) out.push(`${file} → ${target}: imports upward (${from} is on the engine's ${ENGINE_FLOORS[fromFloor]!.name} floor, ${to} on its ${ENGINE_FLOORS[toFloor]!.name} floor)`);
      else if (toFloor === fromFloor && ENGINE_FLOORS[fromFloor]!.independent) out.push(`${file} → ${target}: a layer imports another layer (${from} and ${to} are both on the engine's ${ENGINE_FLOORS[fromFloor]!.name} floor)`);
      else if (toFloor === fromFloor) (edges.get(from) ?? edges.set(from, new Set()).get(from)!).add(to);
    }
  }
  // Units of a floor that allows siblings must not import each other in a circle.
  const unitGraph = new Map<string, { files: string[]; packages: string[] }>();
  for (const [u, to] of edges) {
    unitGraph.set(u, { files: [...to], packages: [] });
    for (const t of to) if (!unitGraph.has(t)) unitGraph.set(t, { files: [], packages: [] });
  }
  for (const circle of fileCircles(unitGraph)) out.push(`engine units in a circle: ${circle.join(', ')}`);
  return out;
}

describe('import direction (ARCHITECTURE.md, "Floors")', () => {
  const graph = importGraph();

  it('reads the imports of every kind, and not those in comments', () => {
    const code = [
      "import { a } from './a.js';",
      "import type { B } from '../b.js';",
      "export * from './c.js';",
      "export { d, type E } from './d.js';",
      "import './side.js';",
      "const m = await import('./lazy.js');",
      "type L = import('./typed.js').L;",
      "// import { x } from './commented.js';",
      "/* import('./also-commented.js') */",
      "const s = \"import { y } from './in-a-string.js'\";",
    ].join('\n');
    expect(specifiers(code)).toEqual(['./a.js', '../b.js', './c.js', './d.js', './side.js', './lazy.js', './typed.js']);
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('host/engine-set.ts')!.files).toContain('core/engine.ts');
  });

  it('every import points down a floor (never up, never to a sibling)', () => {
    expect(floorViolations(graph)).toEqual([]);
  });

  it('no files import each other in a circle', () => {
    expect(fileCircles(graph)).toEqual([]);
  });

  it('every file is reached from a package entry (no orphans)', () => {
    const entries = entryFiles();
    expect(entries).toContain('index.node.ts');
    expect(entries).toContain('node/cli.ts');
    for (const e of entries) expect(graph.has(e), `${e} (package.json) exists in src/`).toBe(true);
    expect(unreachableFiles(graph, entries)).toEqual([]);
    // An extra file nobody imports is named.
    const g = new Map(graph);
    g.set('tracker/orphan.ts', { files: ['core/engine.ts'], packages: [] });
    expect(unreachableFiles(g, entries)).toEqual(['tracker/orphan.ts']);
  });

  it('catches an upward import and a circle', () => {
    const g = new Map(graph);
    g.set('core/engine.ts', { files: [...graph.get('core/engine.ts')!.files, 'engine/context.ts'], packages: ['node:fs'] });
    expect(floorViolations(g)).toEqual([
      'core/engine.ts → engine/context.ts: imports upward (core is on floor 0, engine on floor 2)',
      'core/engine.ts → node:fs: a Node-only import outside src/node and the disk driver',
    ]);
    expect(fileCircles(g)).toEqual([['core/engine.ts', 'engine/context.ts']]);
  });
  it("inside the engine, every import points down the engine's floors (a layer never imports another layer)", () => {
    expect(engineFloorViolations(graph)).toEqual([]);
  });

  it("catches a layer importing another layer, an upward import and a circle inside the engine", () => {
    const g = new Map(graph);
    g.set('engine/static/layer.ts', { files: [...graph.get('engine/static/layer.ts')!.files, 'engine/ws/layer.ts', 'engine/options.ts'], packages: [] });
    g.set('engine/mock-fs.ts', { files: ['engine/is-mock-api.ts'], packages: [] });
    g.set('engine/is-mock-api.ts', { files: ['engine/mock-fs.ts'], packages: [] });
    expect(engineFloorViolations(g)).toEqual([
      "engine/static/layer.ts → engine/ws/layer.ts: a layer imports another layer (static and ws are both on the engine's layers floor)",
      "engine/static/layer.ts → engine/options.ts: imports upward (static is on the engine's layers floor, options.ts on its assembly floor)",
      'engine units in a circle: is-mock-api.ts, mock-fs.ts',
    ]);
  });
});
