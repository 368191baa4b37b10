/**
 * THE wrapper that watches an engine from outside (host-neutral): `observeEngine(engine, observer,
 * answeredBy)` is the engine with `handle` / `handleCached` calling `observer` with an Exchange
 * (the shape the mock API's own observer hook gives: method, path, query, status, ms, what
 * answered, the Request and the Response) after each request the engine answered. Requests it does
 * not claim (undefined: the next engine's) are not reported; everything else (prefixes, upgrade,
 * close, an engine's own extras) is the engine's own through the prototype. Users: the CLI's
 * request log (src/node/request-log.ts) and the request journal (src/devtools/journaled-engine.ts).
 * Costs one clock read and one URL split per answered request.
 */
import type { Engine } from './engine.js';
import { splitUrl, type AnsweredBy, type Exchange } from './exchange.js';

export function observeEngine<E extends Engine>(engine: E, observer: (exchange: Exchange) => void, answeredBy: (pathname: string) => AnsweredBy): E {
  const report = (request: Request, response: Response, start: number) => {
    const [pathname, search] = splitUrl(request.url);
    observer({ method: request.method.toUpperCase(), pathname, search, status: response.status, ms: performance.now() - start, answeredBy: answeredBy(pathname), request, response });
  };
  const wrapper = Object.create(engine) as E;
  wrapper.handle = async (request) => {
    const start = performance.now();
    const response = await engine.handle(request);
    if (response !== undefined) report(request, response, start);
    return response;
  };
  if (engine.handleCached) {
    wrapper.handleCached = (request) => {
      const start = performance.now();
      const response = engine.handleCached!(request);
      if (response !== undefined) report(request, response, start);
      return response;
    };
  }
  return wrapper;
}
