/**
 * What a scenario's pipeline is built from (the pipeline itself: buildLayers, layers.ts,
 * called again): its handlers first, then the base handlers it does not switch off; its files
 * over the base files (an overlay Vfs, src/vfs/overlay.ts: the scenario folder first, the base
 * mocks second; writes go to the scenario folder); its delay, else the base one; its fault rules,
 * then the base ones.
 */
import type { Vfs } from '../vfs/types.js';
import { overlayFs } from '../vfs/overlay.js';
import { subFs } from '../vfs/sub.js';
import type { LayerSources } from './layers.js';
import type { ResolvedMockApiOptions } from './options.js';
import type { ResolvedScenario } from './scenarios/options.js';
import type { RestHandler } from './types.js';

export interface ScenarioVfs {
  /** The base filesystem (null: no base file routing). */
  vfs: Vfs | null;
  /** The base mocks folder inside it. */
  fsDir: string | null;
  /** Given `fs`: the scenario folder is a folder of it. Otherwise a factory (disk) roots one at it. */
  insideFs: boolean;
  /** For the disk default: a Vfs rooted at a folder relative to `root`. */
  open?: (fsDir: string) => Vfs;
}

/** Whether base handler `h` is switched off by a `disabled` entry (`pattern` or `METHOD pattern`). */
function isDisabled(h: RestHandler, disabled: readonly string[]): boolean {
  for (const d of disabled) {
    const space = d.indexOf(' ');
    if (space === -1) {
      if (h.pattern === d) return true;
    } else if (h.pattern === d.slice(space + 1).trim() && (h.method === '*' || (h.method ?? 'GET').toUpperCase() === d.slice(0, space).toUpperCase())) return true;
  }
  return false;
}

export interface ScenarioSources {
  sources: Pick<LayerSources, 'options' | 'vfs' | 'fsDir' | 'filesName'>;
  /** Filesystems opened for this scenario (closed with the engine). */
  owned: Vfs[];
}

export function scenarioSources(scenario: ResolvedScenario, options: ResolvedMockApiOptions, base: ScenarioVfs): ScenarioSources {
  const handlers = [...scenario.handlers, ...options.handlers.filter((h) => !isDisabled(h, scenario.disabled))];
  const graphqlHandlers = [...scenario.graphqlHandlers, ...options.graphqlHandlers];
  const scenarioOptions: ResolvedMockApiOptions = { ...options, handlers, graphqlHandlers, delay: scenario.delay ?? options.delay, faults: [...scenario.faults, ...options.faults] };
  const owned: Vfs[] = [];
  let vfs = base.vfs;
  let fsDir = base.fsDir;
  if (scenario.fsDir !== undefined) {
    let top: Vfs | null = null;
    if (base.insideFs && base.vfs) top = subFs(base.vfs, scenario.fsDir);
    else if (base.open) {
      top = base.open(scenario.fsDir);
      owned.push(top);
    }
    if (top) {
      vfs = base.vfs && base.fsDir !== null ? overlayFs(top, subFs(base.vfs, base.fsDir)) : top;
      fsDir = '';
    }
  }
  return { sources: { options: scenarioOptions, vfs, fsDir, filesName: `scenario:${scenario.name}` }, owned };
}
