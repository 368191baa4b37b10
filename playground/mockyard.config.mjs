// The demo backend for `npm start`: the "team tasks" files in ./mocks served under /api, plus the
// event collector under /_tracker. The playground app (npm run playground, "Node host" switch)
// talks to it through Vite's proxy; the same handlers run in the page in service-worker mode.
//
//   GET  /api/tasks?status=doing&priority=high&_sort=createdAt&_order=desc&_limit=5&_skip=0
//   GET  /api/tasks?title=test            (title contains, case-insensitive; `q` too)
//   GET  /api/users   /api/users/1   /api/members   /api/uploads/logo.png   /api/uploads/readme.txt
//   POST/PATCH/DELETE /api/tasks[/id]     (handlers; they rewrite mocks/tasks.json)
//   WS   /api/chat/{room}?name=you
//
// Writes change the files in playground/mocks: `git checkout playground/mocks` restores the demo.
import { defineConfig } from 'mockyard';
import { filters, handlers, pagination, scenarios, wsHandlers } from './shared/team-tasks.mjs';

export default defineConfig({
  mock: {
    endpointPrefix: '/api',
    fsDir: './mocks', // relative to this file
    pagination,
    filters: {
      GET: {
        ...filters.GET,
        filters: [...filters.GET.filters, { key: 'title', comparison: 'contains' }],
      },
    },
    handlers,
    enableWs: true,
    wsHandlers,
    scenarios,
  },
  tracker: { appId: 'playground' },
  port: 3000,
});
