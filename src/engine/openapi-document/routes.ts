/**
 * The document's paths as a route table: concrete segments before templates (`/pets/mine`
 * before `/pets/{id}`, as OpenAPI says), matched on the path below the engine prefix (the
 * prefix stands for the server URL). Literal segments are compared as they arrive (encoded).
 */
import { matchPath, type PathMatch, type PathRoute } from './path-match.js';
import type { Operation } from './operations.js';

export type RouteMatch = PathMatch<Operation>;

type Route = PathRoute<Operation>;

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function createRouter(operations: Operation[]): (method: string, subPath: string) => RouteMatch {
  const byTemplate = new Map<string, Route>();
  for (const op of operations) {
    let route = byTemplate.get(op.template);
    if (!route) {
      const names: string[] = [];
      let templated = 0;
      const pattern = op.template.split('/').filter(Boolean).map((seg) => {
        // A segment may mix text and templates (`/files/{name}.{ext}`).
        if (!seg.includes('{')) return escapeRegex(encodeURI(seg));
        return seg.split(/(\{[^}]+\})/).filter(Boolean).map((part) => {
          if (/^\{[^}]+\}$/.test(part)) {
            names.push(part.slice(1, -1));
            templated++;
            return '([^/]+?)';
          }
          return escapeRegex(encodeURI(part));
        }).join('');
      }).join('/');
      route = { regex: new RegExp(`^/${pattern}/?$`), names, templated, ops: new Map() };
      byTemplate.set(op.template, route);
    }
    route.ops.set(op.method, op);
  }
  const routes = [...byTemplate.values()].sort((a, b) => a.templated - b.templated);
  // The last answer is kept: the request validator and the backend ask for the same request one
  // after the other (and a client repeats its requests). A match is never changed by its readers.
  let last: { method: string; subPath: string; match: RouteMatch } | undefined;
  return (method, subPath) => {
    if (last !== undefined && last.subPath === subPath && last.method === method) return last.match;
    const match = matchPath(routes, method, subPath);
    last = { method, subPath, match };
    return match;
  };
}
