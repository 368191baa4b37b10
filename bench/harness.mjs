// Pieces shared by the wrk benchmarks (bench/run.mjs, bench/json-server.mjs): core pinning,
// a server process that prints its port, wrk output parsing, server CPU from /proc, medians.
import { spawn, spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';

export const hasTaskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0;

/** `[cmd, args]` run on `core` (taskset), or unpinned where taskset is missing. */
export const pin = (core, cmd, args) => (hasTaskset ? ['taskset', ['-c', String(core), cmd, ...args]] : [cmd, args]);

/**
 * Starts a server on core 0 and resolves with `{ child, port, role }` once it prints its port:
 * a JSON line `{"port":N}` or the mockyard CLI's `listening on http://127.0.0.1:N`.
 */
export function startPinned(role, cmd, args, { cwd, children } = {}) {
  const [c, full] = pin(0, cmd, args);
  const child = spawn(c, full, { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
  children?.push(child);
  return new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      const json = buf.split('\n').find((l) => l.startsWith('{'));
      const cli = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(buf);
      if (json) resolve({ child, port: JSON.parse(json).port, role });
      else if (cli) resolve({ child, port: Number(cli[1]), role });
    });
    child.once('exit', (code) => reject(new Error(`${role} server exited (${code})`)));
  });
}

/** req/s, request count, non-2xx count and socket errors from wrk's output. */
export function parseWrk(out) {
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN),
    requests: Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN),
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0),
    errors: /Socket errors: (.*)/.exec(out)?.[1] ?? null,
  };
}

/** Server CPU time (user + system) in µs from /proc (Linux); null elsewhere. */
export async function cpuUs(pid) {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * (1e6 / 100); // clock ticks (USER_HZ 100)
  } catch {
    return null;
  }
}

export const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * `reps` rounds over two servers, alternating which goes first; `measure(server)` runs one load
 * and answers `{ rps, requests, non2xx, errors }`. Each run's server CPU per request is taken
 * from /proc around it. Returns req/s and CPU µs per request by role, and any problems seen.
 */
export async function alternate(servers, reps, measure) {
  const runs = Object.fromEntries(servers.map((s) => [s.role, []]));
  const cpu = Object.fromEntries(servers.map((s) => [s.role, []]));
  const problems = [];
  for (let r = 0; r < reps; r++) {
    for (const s of r % 2 === 0 ? servers : [...servers].reverse()) {
      const c0 = await cpuUs(s.child.pid);
      const out = await measure(s);
      const c1 = await cpuUs(s.child.pid);
      runs[s.role].push(out.rps);
      if (c0 !== null && c1 !== null && out.requests) cpu[s.role].push((c1 - c0) / out.requests);
      if (out.non2xx || out.errors) problems.push(`${s.role}: ${out.non2xx} non-2xx${out.errors ? `, socket errors ${out.errors}` : ''}`);
    }
  }
  return { runs, cpu, problems };
}
