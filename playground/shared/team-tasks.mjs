// The "team tasks" mock API, shared by both hosts of the playground: the page (startWorker, files
// on IndexedDB) and the node host (`mockyard` CLI with playground/mockyard.config.mjs). One
// module, one behaviour: what the app sees does not depend on where the engine runs.
//
//   GET    /api/tasks?status=&assignee=&q=&_limit=&_skip=&_sort=&_order=   file mode (X-Total-Count)
//   POST   /api/tasks                 handler: appends a task with the next id (201)
//   PATCH  /api/tasks/{id}            handler: merges the fields (200) / 404
//   DELETE /api/tasks/{id}            handler: removes it (204) / 404
//   PUT    /api/uploads/{name}        file mode: multipart upload stored as bytes
//   GET    /api/uploads/{name}        file mode: the bytes, Content-Type from the extension
//   GET    /api/members               file mode
//   POST   /api/_reset                handler: restores the seed (filesystems with reset())
//   WS     /api/chat/{room}?name=     chat room: join/leave notices, messages to the room
//
// The data is playground/mocks: served from disk by the node host, bundled as the IndexedDB
// seed by the page (playground/src/seed.ts).

export const pagination = {
  GET: { type: 'query-param', limit: '_limit', skip: '_skip', sort: '_sort', order: '_order' },
};

export const filters = {
  GET: {
    type: 'query-param',
    filters: [
      { key: 'status', comparison: 'eq' },
      { key: 'assignee', comparison: 'eq' },
      { key: 'priority', comparison: 'eq' },
      { key: 'q', field: 'title', comparison: 'contains' },
      { key: 'title', comparison: 'contains' },
    ],
  },
};

const EDITABLE = ['title', 'status', 'assignee', 'priority', 'due', 'attachment'];
const decoder = new TextDecoder();

/** Read-modify-write of tasks.json, one at a time per filesystem (nothing lost under concurrency). */
const chains = new WeakMap();
function updateTasks(fs, change) {
  const run = (chains.get(fs) ?? Promise.resolve()).then(async () => {
    const tasks = JSON.parse(decoder.decode(await fs.read('tasks.json')));
    const result = await change(tasks);
    if (result.write) await fs.write('tasks.json', JSON.stringify(tasks, null, 2));
    return result;
  });
  chains.set(fs, run.catch(() => {}));
  return run;
}

function pickFields(body) {
  const out = {};
  if (body && typeof body === 'object') {
    for (const key of EDITABLE) if (key in body) out[key] = body[key];
  }
  return out;
}

/** Thrown errors with a `status` become the engine's standard JSON error body (either host). */
function httpError(status, message) {
  return Object.assign(new Error(message), { status });
}

export const handlers = [
  {
    pattern: '/tasks',
    method: 'POST',
    async handle(req, res) {
      const fields = pickFields(req.body);
      if (typeof fields.title !== 'string' || fields.title.trim() === '') throw httpError(400, 'title is required');
      const { task } = await updateTasks(req.app.fs, (tasks) => {
        const id = tasks.reduce((max, t) => Math.max(max, t.id), 0) + 1;
        const created = { id, status: 'todo', assignee: null, priority: 'medium', due: null, attachment: null, ...fields, title: fields.title.trim() };
        tasks.push(created);
        return { write: true, task: created };
      });
      res.status(201).json(task);
    },
  },
  {
    pattern: '/tasks/{id:\\d+}',
    method: 'PATCH',
    async handle(req, res) {
      const id = Number(req.params.id);
      const fields = pickFields(req.body);
      const { task } = await updateTasks(req.app.fs, (tasks) => {
        const t = tasks.find((x) => x.id === id);
        if (!t) return { write: false, task: null };
        Object.assign(t, fields);
        return { write: true, task: t };
      });
      if (!task) throw httpError(404, `Task ${id} not found`);
      res.json(task);
    },
  },
  {
    pattern: '/tasks/{id:\\d+}',
    method: 'DELETE',
    async handle(req, res) {
      const id = Number(req.params.id);
      const { found } = await updateTasks(req.app.fs, (tasks) => {
        const i = tasks.findIndex((x) => x.id === id);
        if (i === -1) return { write: false, found: false };
        tasks.splice(i, 1);
        return { write: true, found: true };
      });
      if (!found) throw httpError(404, `Task ${id} not found`);
      res.status(204).end();
    },
  },
  {
    pattern: '/_reset',
    method: 'POST',
    async handle(req, res) {
      const fs = req.app.fs;
      if (typeof fs.reset !== 'function') throw httpError(501, `The ${fs.driver} filesystem has no seed to restore`);
      await fs.reset();
      res.json({ ok: true });
    },
  },
];

export const wsHandlers = [
  {
    pattern: '/chat/{room}',
    onConnect(conn) {
      const name = String(conn.query.name ?? 'guest').slice(0, 40) || 'guest';
      conn.data.name = name;
      conn.join(conn.params.room);
      conn.send({ type: 'welcome', room: conn.params.room, you: name });
      conn.broadcast({ type: 'joined', name, at: new Date().toISOString() }, { room: conn.params.room });
    },
    onMessage(conn, message) {
      const text = typeof message === 'object' && message !== null ? message.text : message;
      if (typeof text !== 'string' || text.trim() === '') return;
      conn.broadcast({ type: 'message', from: conn.data.name, text: text.slice(0, 2000), at: new Date().toISOString() }, { room: conn.params.room, includeSelf: true });
    },
    onClose(conn) {
      conn.broadcast({ type: 'left', name: conn.data.name, at: new Date().toISOString() }, { room: conn.params.room });
    },
  },
];

/** The mock API options for either host, on the filesystem `fs` (IndexedDB, memory…). */
/**
 * Scenarios (switch them on the devtools page, `/_mockyard/` → Scenarios, or per request with
 * `X-Mockyard-Scenario`): `empty` answers an empty task list, `outage` a 503 for every task read.
 */
export const scenarios = {
  empty: { handlers: [{ pattern: '/tasks', method: 'GET', handle: (_req, res) => res.json([]) }] },
  outage: { handlers: [{ pattern: '/tasks', method: 'GET', handle: (_req, res) => res.status(503).json({ status: 503, error: 'Service Unavailable', message: 'scenario outage' }) }] },
};

export function teamTasksMock(fs, extra = {}) {
  return {
    endpointPrefix: '/api',
    fs,
    pagination,
    filters,
    handlers,
    enableWs: true,
    wsHandlers,
    scenarios,
    ...extra,
  };
}

/** The collector options for either host (events on `fs` when given, else in memory). */
export function teamTasksTracker(fs) {
  return { appId: 'team-tasks', ...(fs ? { storage: { fs, dir: 'events' } } : {}) };
}
