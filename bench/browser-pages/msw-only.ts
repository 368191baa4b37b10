// Baseline (the ceiling of any msw-based host): msw with one trivial handler that returns
// prepared bytes. The bench copies the exact bytes and headers mockyard answered into `bodies`.
import { http, HttpResponse } from 'msw';
import { setupWorker } from 'msw/browser';

const bodies: Record<string, { text: string; headers: Record<string, string> }> = {};
const worker = setupWorker(
  http.get('/raw/:name', ({ params }) => {
    const b = bodies[params.name as string]!;
    return new HttpResponse(b.text, { headers: b.headers });
  }),
);
Object.assign(window, {
  bodies,
  ready: worker.start({ quiet: true, onUnhandledRequest: 'bypass' }).then(() => 'ok'),
});
