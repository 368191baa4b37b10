/**
 * The tracker client's delivery loop with fake timers and a hand-answered fetch: ownership of
 * in-flight batches, batchIds on retries, flushTimeout, backoff, 401/403, 413/422 isolation,
 * the queue cap and oversized events.
 */
import { describe, expect, it, vi } from 'vitest';
import { ev, harness, seq, useFakeTimersPerTest } from './fakes.js';

const tick = () => vi.advanceTimersByTimeAsync(0);

useFakeTimersPerTest();

describe('ownership of in-flight batches', () => {
  it('keeps a batch in the queue while its request is open, and sends it with keepalive and a batchId', async () => {
    const h = harness({ batchSize: 3 });
    for (let i = 0; i < 3; i++) h.client.track(ev(i));
    await tick();
    expect(h.fetch.calls).toHaveLength(1);
    const [call] = h.fetch.calls;
    expect(call!.init.keepalive).toBe(true);
    expect(call!.body.batchId).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(h.client.pending).toBe(3);
    expect(h.client.stats()).toMatchObject({ queued: 3, inFlight: 3, sent: 0 });
    call!.answer(200, { ok: true, saved: 3 });
    await tick();
    expect(h.client.stats()).toMatchObject({ queued: 0, inFlight: 0, sent: 3 });
  });

  it('sends one batch at a time, oldest first', async () => {
    const h = harness({ batchSize: 2 });
    for (let i = 0; i < 5; i++) h.client.track(ev(i));
    const done = h.client.flush();
    await tick();
    expect(h.fetch.open).toHaveLength(1);
    for (let n = 0; n < 3; n++) {
      h.fetch.answerAll();
      await tick();
    }
    expect(await done).toBe(true);
    expect(h.fetch.calls.map((c) => c.body.events.length)).toEqual([2, 2, 1]);
    expect(seq(h.fetch.calls)).toEqual([0, 1, 2, 3, 4]);
  });

  it('re-sends a failed batch with the same batchId and the same events (events queued since go in a later batch)', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const h = harness({ batchSize: 10 });
    h.client.track(ev(0));
    h.client.track(ev(1));
    void h.client.flush();
    await tick();
    h.fetch.calls[0]!.fail();
    await tick();
    h.client.track(ev(2));
    expect(h.client.stats()).toMatchObject({ state: 'backoff', queued: 3, retries: 1 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.fetch.calls).toHaveLength(2);
    expect(h.fetch.calls[1]!.body.batchId).toBe(h.fetch.calls[0]!.body.batchId);
    expect(seq([h.fetch.calls[1]!])).toEqual([0, 1]);
    h.fetch.answerAll();
    await tick();
    expect(seq([h.fetch.calls[2]!])).toEqual([2]);
    expect(h.fetch.calls[2]!.body.batchId).not.toBe(h.fetch.calls[0]!.body.batchId);
  });

  it('an unload while a batch is in flight: the keepalive request carries it, the rest is beaconed, all of it is persisted', async () => {
    const h = harness({ batchSize: 2 });
    for (let i = 0; i < 5; i++) h.client.track(ev(i));
    await tick();
    expect(h.fetch.open).toHaveLength(1); // [0,1] travelling with keepalive
    expect(h.client.flushBeacon()).toBe(true);
    await tick();
    expect(h.beacon.beacons.map((b) => b.body.events.map((e) => e.i))).toEqual([[2, 3], [4]]);
    expect(h.beacon.beacons[0]!.url).toBe('https://collector.test/_tracker/events');
    const stored = JSON.parse(h.storage.getItem(h.storage.key(0)!)!) as { batches: Array<{ id: string; e: Array<{ i: number }> }> };
    expect(stored.batches.map((b) => b.e.map((e) => e.i))).toEqual([[0, 1], [2, 3], [4]]);
    expect(stored.batches.map((b) => b.id)).toEqual([h.fetch.calls[0]!.body.batchId, h.beacon.beacons[0]!.body.batchId, h.beacon.beacons[1]!.body.batchId]);
    // Beaconed batches are still owned: nothing is acknowledged by a beacon.
    expect(h.client.pending).toBe(5);
  });

  it('a batch whose send has not reached fetch yet (in flight, no keepalive request) is beaconed too, with its batchId', async () => {
    vi.useRealTimers(); // CompressionStream runs on Node's real event loop
    const h = harness({ batchSize: 2, compress: true });
    for (let i = 0; i < 2; i++) h.client.track(ev(i));
    // The send is compressing its body (CompressionStream is asynchronous): in flight, no request yet.
    expect(h.client.stats().inFlight).toBe(2);
    expect(h.client.flushBeacon()).toBe(true);
    await vi.waitFor(() => expect(h.fetch.calls).toHaveLength(1));
    await vi.waitFor(() => expect(h.beacon.beacons[0]?.body).toBeDefined());
    expect(h.fetch.calls[0]!.init.headers).toMatchObject({ 'Content-Encoding': 'gzip' });
    expect(h.beacon.beacons[0]!.body.batchId).toBe(h.fetch.calls[0]!.body.batchId);
  });
});

describe('flushTimeout and backoff', () => {
  it('aborts a send that gets no answer within flushTimeout and retries the same batch', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const errors: unknown[] = [];
    const h = harness({ flushTimeout: 2000, onError: (e) => errors.push(e) });
    h.client.track(ev(0));
    void h.client.flush();
    await tick();
    await vi.advanceTimersByTimeAsync(1999);
    expect(h.fetch.calls[0]!.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.fetch.calls[0]!.aborted).toBe(true);
    expect(h.client.stats().lastError).toContain('flushTimeout');
    expect(String(errors[0])).toContain('flushTimeout');
    await vi.advanceTimersByTimeAsync(500); // jitter 0 → half of the 1 s base
    expect(h.fetch.calls).toHaveLength(2);
    expect(h.fetch.calls[1]!.body.batchId).toBe(h.fetch.calls[0]!.body.batchId);
  });

  it('backs off exponentially (capped) on 5xx and network errors, and sends nothing meanwhile however much is tracked', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(1); // jitter at its top: delay = min(max, base · 2^n)
    const h = harness({ batchSize: 1, backoff: { base: 100, max: 1000 } });
    h.client.track(ev(0));
    const times: number[] = [];
    let t0 = Date.now();
    for (let n = 0; n < 6; n++) {
      await tick();
      expect(h.fetch.open).toHaveLength(1);
      times.push(Date.now() - t0);
      t0 = Date.now();
      if (n % 2) h.fetch.open[0]!.answer(503, { message: 'busy' });
      else h.fetch.open[0]!.fail();
      await tick();
      for (let i = 0; i < 30; i++) h.client.track(ev(100 + i)); // full batches: no extra sends in backoff
      expect(h.fetch.open).toHaveLength(0);
      const before = h.fetch.calls.length;
      await vi.advanceTimersByTimeAsync(Math.min(1000, 100 * 2 ** n) - 1);
      expect(h.fetch.calls.length).toBe(before);
      await vi.advanceTimersByTimeAsync(1);
    }
    expect(h.fetch.calls).toHaveLength(7);
    expect(new Set(h.fetch.calls.map((c) => c.body.batchId)).size).toBe(1);
    h.fetch.answerAll();
    await tick();
    expect(h.client.stats().state).toBe('running');
    // Success resets the backoff: the next failure waits the base again.
    h.client.track(ev(999));
    await tick();
    h.fetch.open[0]!.fail();
    await tick();
    const before = h.fetch.calls.length;
    await vi.advanceTimersByTimeAsync(100);
    expect(h.fetch.calls.length).toBe(before + 1);
  });

  it('waits at least Retry-After on 429/503', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const h = harness();
    h.client.track(ev(0));
    void h.client.flush();
    await tick();
    h.fetch.calls[0]!.answer(429, { message: 'slow down' }, { 'retry-after': '7' });
    await tick();
    await vi.advanceTimersByTimeAsync(6999);
    expect(h.fetch.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.fetch.calls).toHaveLength(2);
  });

  it('a 404 (wrong endpoint?) is retried with backoff and warned about once', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(1);
    const h = harness();
    h.client.track(ev(0));
    void h.client.flush();
    for (let n = 0; n < 3; n++) {
      await tick();
      h.fetch.open[0]!.answer(404, { status: 404, message: 'Not Found' });
      await vi.advanceTimersByTimeAsync(1000 * 2 ** n);
    }
    expect(h.fetch.calls).toHaveLength(4);
    expect(h.warnings.filter((w) => w.includes('404') && w.includes('ingest URL'))).toHaveLength(1);
    expect(h.client.stats()).toMatchObject({ queued: 1, dropped: 0 });
  });

  it('stop() while a send is out: a failure answered afterwards schedules nothing', async () => {
    const h = harness({ flushInterval: 1000 });
    h.client.track(ev(0));
    void h.client.flush();
    await tick();
    h.client.stop();
    h.fetch.calls[0]!.answer(503);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(h.fetch.calls).toHaveLength(1);
    expect(h.client.stats()).toMatchObject({ state: 'closed', queued: 1 });
  });

  it('flush() during a backoff tries at once', async () => {
    const h = harness();
    h.client.track(ev(0));
    void h.client.flush();
    await tick();
    h.fetch.calls[0]!.answer(500);
    await tick();
    expect(h.client.stats().state).toBe('backoff');
    const done = h.client.flush();
    await tick();
    h.fetch.answerAll();
    expect(await done).toBe(true);
  });
});

describe('401 / 403', () => {
  it('stops sending, keeps the queue, warns once with the collector message; setApiKey resumes', async () => {
    const h = harness({ apiKey: 'wrong', batchSize: 2, flushInterval: 1000 });
    h.client.track(ev(0));
    h.client.track(ev(1));
    await tick();
    h.fetch.calls[0]!.answer(401, { status: 401, error: 'UNAUTHORIZED', message: 'Invalid API key' });
    await tick();
    for (let i = 2; i < 40; i++) h.client.track(ev(i));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.fetch.calls).toHaveLength(1);
    expect(h.client.stats()).toMatchObject({ state: 'stopped', queued: 40, dropped: 0 });
    expect(h.warnings.filter((w) => w.includes('Invalid API key'))).toHaveLength(1);
    expect(h.client.flushBeacon()).toBe(false); // no beacons a wrong key would waste; persisted instead
    expect(h.beacon.beacons).toHaveLength(0);
    expect(h.storage.length).toBe(1);
    h.client.setApiKey('right');
    await tick();
    expect(h.fetch.calls[1]!.init.headers).toMatchObject({ 'X-Tracker-Key': 'right' });
    expect(h.fetch.calls[1]!.body.batchId).toBe(h.fetch.calls[0]!.body.batchId);
  });

  it('403 stops the same way', async () => {
    const h = harness();
    h.client.track(ev(0));
    void h.client.flush();
    await tick();
    h.fetch.calls[0]!.answer(403, { message: 'Origin not allowed' });
    await tick();
    expect(h.client.stats().state).toBe('stopped');
    expect(await h.client.flush()).toBe(false);
    expect(h.fetch.calls).toHaveLength(1);
  });
});

describe('413 / 422: the bad event is isolated, the rest goes through', () => {
  it('422 naming an index: that event alone is dropped with the collector message', async () => {
    const h = harness({ batchSize: 5 });
    for (let i = 0; i < 5; i++) h.client.track(i === 2 ? { ...ev(i), timestamp: 'yesterday' } : ev(i));
    await tick();
    h.fetch.calls[0]!.answer(422, { status: 422, message: 'Invalid event at index 2: bad timestamp', index: 2 });
    for (let n = 0; n < 5; n++) {
      await tick();
      for (const c of [...h.fetch.open]) {
        if (c.body.events.some((e) => e.timestamp === 'yesterday')) c.answer(422, { message: 'Invalid event at index 0: bad timestamp', index: 0 });
        else c.answer(200);
      }
    }
    await tick();
    const delivered = h.fetch.calls.filter((c) => !c.body.events.some((e) => e.timestamp === 'yesterday'));
    expect(seq(delivered)).toEqual([0, 1, 3, 4]);
    expect(h.client.stats()).toMatchObject({ queued: 0, sent: 4, dropped: 1, droppedBy: { rejected: 1 } });
    expect(h.warnings.some((w) => w.includes('Invalid event at index 0: bad timestamp'))).toBe(true);
  });

  it('413 without an index: halves until the event is alone, every good event delivered once', async () => {
    const h = harness({ batchSize: 8 });
    for (let i = 0; i < 8; i++) h.client.track(i === 5 ? ev(i, 2000) : ev(i));
    await tick();
    for (let n = 0; n < 20 && h.fetch.open.length; n++) {
      for (const c of [...h.fetch.open]) {
        if (c.body.events.some((e) => e.i === 5)) c.answer(413, { message: 'Request body exceeds the limit of 1000 bytes' });
        else c.answer(200);
      }
      await tick();
    }
    const delivered = h.fetch.calls.filter((c) => !c.body.events.some((e) => e.i === 5));
    expect(seq(delivered)).toEqual([0, 1, 2, 3, 4, 6, 7]);
    expect(h.client.stats()).toMatchObject({ queued: 0, sent: 7, droppedBy: { rejected: 1 } });
    expect(h.warnings.some((w) => w.includes('exceeds the limit of 1000 bytes'))).toBe(true);
  });
});

describe('the queue cap', () => {
  it('drops the oldest events past maxQueue, counts them, warns once', async () => {
    const h = harness({ maxQueue: 10, batchSize: 4 });
    // stopped by a 401 so nothing leaves while we fill it
    h.client.track(ev(0));
    void h.client.flush();
    await tick();
    h.fetch.calls[0]!.answer(401, { message: 'Missing API key' });
    await tick();
    for (let i = 1; i < 16; i++) h.client.track(ev(i));
    expect(h.client.stats()).toMatchObject({ queued: 10, dropped: 6, droppedBy: { queueFull: 6 } });
    expect(h.warnings.filter((w) => w.includes('maxQueue'))).toHaveLength(1);
    h.client.setApiKey('k');
    await tick();
    while (h.fetch.open.length) {
      h.fetch.answerAll();
      await tick();
    }
    // The sealed batch [0] had left once (it may be stored): it went whole; then the oldest loose events.
    expect(seq(h.fetch.calls.slice(1))).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
  });
});

describe('oversized and unserialisable events', () => {
  it('truncates an event over maxEventBytes (longest strings cut, _truncated marker), warns once', async () => {
    const h = harness({ maxEventBytes: 4096 });
    h.client.track({ type: 'big', message: 'm'.repeat(70_000), stack: 's'.repeat(3000), timestamp: '2026-01-01T00:00:00.000Z' });
    h.client.track({ type: 'big2', message: 'n'.repeat(70_000) });
    void h.client.flush();
    await tick();
    const [first, second] = h.fetch.calls[0]!.body.events;
    expect(new TextEncoder().encode(JSON.stringify(first)).byteLength).toBeLessThanOrEqual(4096);
    expect(first).toMatchObject({ type: 'big', timestamp: '2026-01-01T00:00:00.000Z', _truncated: expect.any(Number) });
    expect((first!._truncated as number) > 70_000).toBe(true);
    expect(String(first!.message)).toMatch(/^m+…$/);
    expect(second).toMatchObject({ type: 'big2', _truncated: expect.any(Number) });
    expect(h.client.stats()).toMatchObject({ truncated: 2, dropped: 0 });
    expect(h.warnings.filter((w) => w.includes('truncated'))).toHaveLength(1);
  });

  it('multi-byte text is cut on a character boundary and still fits', async () => {
    const h = harness({ maxEventBytes: 1024 });
    h.client.track({ type: 'emoji', text: '😀é'.repeat(5000) });
    void h.client.flush();
    await tick();
    const [e] = h.fetch.calls[0]!.body.events;
    expect(new TextEncoder().encode(JSON.stringify(e)).byteLength).toBeLessThanOrEqual(1024);
    expect(String(e!.text)).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it("oversize: 'drop' drops and counts it; an event without strings to cut is dropped too; a cycle is dropped as invalid", async () => {
    const h = harness({ maxEventBytes: 1024, oversize: 'drop' });
    h.client.track({ type: 'big', message: 'm'.repeat(5000) });
    const h2 = harness({ maxEventBytes: 1024 });
    h2.client.track({ type: 'numbers', values: Array.from({ length: 2000 }, (_, i) => i) });
    const cyclic: Record<string, unknown> = { type: 'cycle' };
    cyclic.self = cyclic;
    h2.client.track(cyclic);
    h2.client.track({ type: 'ok' });
    expect(h.client.stats()).toMatchObject({ queued: 0, dropped: 1, droppedBy: { oversize: 1 } });
    expect(h.warnings.some((w) => w.includes('larger than maxEventBytes'))).toBe(true);
    expect(h2.client.stats()).toMatchObject({ queued: 1, dropped: 2, droppedBy: { oversize: 1, invalid: 1 } });
  });

  it('batches never exceed 60 KiB of body, so each fits a beacon', async () => {
    const h = harness({ batchSize: 1000 });
    for (let i = 0; i < 300; i++) h.client.track(ev(i, 450));
    const done = h.client.flush();
    for (let n = 0; n < 10 && h.fetch.calls.length < 3; n++) {
      await tick();
      h.fetch.answerAll();
    }
    await done;
    for (const c of h.fetch.calls) expect(new TextEncoder().encode(String(c.init.body)).byteLength).toBeLessThanOrEqual(60 * 1024);
    expect(seq(h.fetch.calls)).toEqual(Array.from({ length: 300 }, (_, i) => i));
  });
});
