// Size baseline only: msw with an http handler AND a ws.link handler (the WebSocket interception
// code mockyard/browser needs is msw's own, ~6 KB gz, and not part of "msw alone").
import { http, HttpResponse, ws } from 'msw';
import { setupWorker } from 'msw/browser';

const chat = ws.link(/^wss?:\/\/[^/]+\/chat/);
const worker = setupWorker(
  http.get('/raw/small', () => HttpResponse.json({ ok: true })),
  chat.addEventListener('connection', ({ client }) => client.addEventListener('message', (e) => client.send(e.data))),
);
Object.assign(window, { ready: worker.start({ quiet: true, onUnhandledRequest: 'bypass' }).then(() => 'ok') });
