import { describe, expect, it } from 'vitest';
import { HttpError, errorResponse, responseForError, toHttpError } from '../../src/core/errors.js';

describe('error bodies', () => {
  it('have one JSON shape', async () => {
    const r = errorResponse(404, 'Resource to update not found', '/api/users/9');
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = (await r.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 404, error: 'NOT_FOUND', message: 'Resource to update not found', path: '/api/users/9' });
    expect(Number.isNaN(Date.parse(String(body.timestamp)))).toBe(false);
  });

  it('hide the detail of unexpected errors', async () => {
    const r = responseForError(new Error('ENOENT: /home/secret/file.json'), '/api/x');
    expect(r.status).toBe(500);
    const body = (await r.json()) as { message: string };
    expect(body.message).toBe('Internal Server Error');
    expect(JSON.stringify(body)).not.toContain('/home/secret');
  });

  it('keep the status of errors that carry one (Express convention)', () => {
    expect(toHttpError(Object.assign(new Error('nope'), { status: 404 })).status).toBe(404);
    expect(toHttpError({ statusCode: 403, message: 'forbidden' }).message).toBe('forbidden');
    expect(toHttpError({ status: 200 }).status).toBe(500);
  });

  it('carry extra headers and details', async () => {
    const r = responseForError(new HttpError(422, 'Event 3 has no timestamp', { details: { index: 3 }, headers: { 'X-A': 'b' } }), '/p');
    expect(r.headers.get('x-a')).toBe('b');
    expect(await r.json()).toMatchObject({ index: 3, status: 422, error: 'UNPROCESSABLE_ENTITY' });
  });

  it('HEAD error responses have no body but a length', async () => {
    const r = errorResponse(404, 'Not Found', '/x', { head: true });
    expect(Number(r.headers.get('content-length'))).toBeGreaterThan(0);
    expect(await r.text()).toBe('');
  });
});

describe('which messages reach the client', () => {
  it('shows the message of any HttpError its author threw, 5xx included', async () => {
    const r = responseForError(new HttpError(503, 'Try again in a minute'), '/api/x');
    expect(((await r.json()) as { message: string }).message).toBe('Try again in a minute');
  });

  it('hides the message of foreign errors carrying a 5xx status', async () => {
    const r = responseForError(Object.assign(new Error('db at /var/lib/secret down'), { status: 502 }), '/api/x');
    expect(r.status).toBe(502);
    expect(((await r.json()) as { message: string }).message).not.toContain('/var/lib');
  });
});
