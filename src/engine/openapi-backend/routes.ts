/**
 * The document's paths as a route table: concrete segments before templates (`/pets/mine`
 * before `/pets/{id}`, as OpenAPI says), matched on the path below the engine prefix (the
 * prefix stands for the server URL). Literal segments are compared as they arrive (encoded).
 */
import type { Operation } from './operations.js';

export type RouteMatch =
  | { operation: Operation; params: Record<string, string> }
  | { status: 404 }
  | { status: 405; allow: string[] };

interface Route {
  regex: RegExp;
  names: string[];
  templated: number;
  ops: Map<string, Operation>;
}

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
  return (method, subPath) => {
    const path = subPath === '' ? '/' : subPath;
    let allowed: Route | undefined;
    for (const r of routes) {
      const m = r.regex.exec(path);
      if (!m) continue;
      const op = r.ops.get(method) ?? (method === 'HEAD' ? r.ops.get('GET') : undefined);
      if (!op) {
        allowed ??= r;
        continue;
      }
      const params: Record<string, string> = {};
      r.names.forEach((n, i) => {
        const raw = m[i + 1]!;
        try {
          params[n] = decodeURIComponent(raw);
        } catch {
          params[n] = raw;
        }
      });
      return { operation: op, params };
    }
    if (allowed) return { status: 405, allow: [...allowed.ops.keys()] };
    return { status: 404 };
  };
}
