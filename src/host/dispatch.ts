/**
 * THE dispatch loop every host uses (createHost's fetch/handle, the node server and middleware,
 * the worker, `interceptFetch`, `handlersFor`): only engines whose prefixes cover the path are
 * asked, in order, and the first answer that is not `undefined` wins. With a single candidate
 * that has the answer at once (`handleCached`, a cached file), no promise is made: `answerFrom`
 * then returns the Response itself, which the node host writes synchronously.
 * Upgrades (WebSocket handshakes) ask, in order, the engines that have `upgrade` and whose prefixes
 * cover the path: the node host's, the page's and `handlersFor`'s sockets alike.
 */
import { isEngine, underPrefix, type Engine } from '../core/engine.js';
import type { UpgradeResult } from '../core/socket.js';
import { splitUrl } from '../core/exchange.js';

/** Whether an engine's prefixes cover `pathname`. */
export function covers(engine: Engine, pathname: string): boolean {
  const prefixes = engine.prefixes;
  for (let i = 0; i < prefixes.length; i++) if (underPrefix(pathname, prefixes[i]!)) return true;
  return false;
}

/** Whether any engine covers `pathname`. */
export function coveredBy(engines: readonly Engine[], pathname: string): boolean {
  for (let i = 0; i < engines.length; i++) if (covers(engines[i]!, pathname)) return true;
  return false;
}

/** The first answer of the engines covering `pathname` (undefined: none answers). */
export function answerFrom(engines: readonly Engine[], request: Request, pathname: string): Response | undefined | Promise<Response | undefined> {
  let first: Engine | undefined;
  let rest: Engine[] | undefined;
  for (let i = 0; i < engines.length; i++) {
    const e = engines[i]!;
    if (!covers(e, pathname)) continue;
    if (first === undefined) first = e;
    else (rest ??= []).push(e);
  }
  if (first === undefined) return undefined;
  if (rest === undefined) {
    const cached = first.handleCached?.(request);
    return cached !== undefined ? cached : first.handle(request);
  }
  return (async () => {
    for (const e of [first, ...rest]) {
      const response = await e.handle(request);
      if (response !== undefined) return response;
    }
    return undefined;
  })();
}

/**
 * The first answer to a WebSocket handshake that is not `undefined`, from the engines with
 * `upgrade` whose prefixes cover the handshake's path (as for requests).
 */
export async function upgradeFrom(engines: readonly Engine[], request: Request, pathname = splitUrl(request.url)[0]): Promise<UpgradeResult> {
  for (let i = 0; i < engines.length; i++) {
    const upgrade = engines[i]!.upgrade;
    if (upgrade === undefined || !covers(engines[i]!, pathname)) continue;
    const result = await upgrade.call(engines[i], request);
    if (result !== undefined) return result;
  }
  return undefined;
}

/** `engine` or a list of engines, checked, as a list. */
export function engineList(engines: Engine | readonly Engine[], who: string): readonly Engine[] {
  const list = Array.isArray(engines) ? (engines as readonly Engine[]) : [engines as Engine];
  list.forEach((e, i) => {
    if (!isEngine(e)) {
      throw new TypeError(`${who}: engines[${i}] is not an engine (createMockApi(…), createCollector(…) or anything with handle() and prefixes)`);
    }
  });
  return list;
}
