/** CoalescedRun: one run at a time; asks during a run make exactly one more round, never lost. */
import { describe, expect, it } from 'vitest';
import { CoalescedRun } from '../../src/core/coalesced-run.js';

/** A task whose rounds finish when the test says so. */
function gated() {
  const rounds: number[] = [];
  const gates: Array<() => void> = [];
  const task = (round: number) => {
    rounds.push(round);
    return new Promise<void>((resolve) => gates.push(resolve));
  };
  const release = async () => {
    gates.shift()!();
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { rounds, task, release };
}

describe('CoalescedRun', () => {
  it('asks while a round runs become one more round, and every asker gets the same promise', async () => {
    const g = gated();
    const run = new CoalescedRun(g.task);
    const first = run.run();
    const second = run.run();
    const third = run.run();
    expect(second).toBe(first);
    expect(third).toBe(first);
    expect(g.rounds).toEqual([0]);
    await g.release();
    expect(g.rounds).toEqual([0, 1]); // three asks, one more round
    let done = false;
    void first.then(() => (done = true));
    await g.release();
    await first;
    expect(done).toBe(true);
    expect(g.rounds).toEqual([0, 1]);
    expect(run.running).toBe(false);
  });

  it('an ask right after the last round (before its promise settles) is never lost', async () => {
    // Whatever the moment of the second ask, the task runs twice.
    for (let ticks = 0; ticks < 10; ticks++) {
      let calls = 0;
      const run = new CoalescedRun(async () => {
        calls++;
      });
      const first = run.run();
      for (let i = 0; i < ticks; i++) await Promise.resolve();
      const second = run.run();
      await Promise.all([first, second]);
      expect(calls, `second ask after ${ticks} ticks`).toBe(2);
    }
  });

  it('repeat(round) stops the rounds that were asked for', async () => {
    let open = true;
    const g = gated();
    const run = new CoalescedRun(g.task, () => open);
    const p = run.run();
    void run.run();
    open = false;
    await g.release();
    await p;
    expect(g.rounds).toEqual([0]);
  });

  it('a task asks for another round itself with again(), bounded by repeat', async () => {
    const rounds: number[] = [];
    const run = new CoalescedRun(
      async (round) => {
        rounds.push(round);
        run.again();
      },
      (round) => round < 4,
    );
    await run.run();
    expect(rounds).toEqual([0, 1, 2, 3]);
  });

  it('a failed round rejects the run and drops the asks made meanwhile; the next run starts anew', async () => {
    let fail = true;
    let calls = 0;
    const run = new CoalescedRun(async () => {
      calls++;
      await Promise.resolve();
      if (fail) throw new Error('boom');
    });
    const p = run.run();
    void run.run().catch(() => undefined);
    await expect(p).rejects.toThrow('boom');
    expect(calls).toBe(1);
    fail = false;
    await run.run();
    expect(calls).toBe(2);
  });

  it('a task that asks at once (before its first await) gets the run under way', async () => {
    let inner: Promise<void> | undefined;
    let calls = 0;
    const run = new CoalescedRun(async () => {
      calls++;
      inner ??= run.run();
    });
    const outer = run.run();
    expect(inner).toBe(outer);
    await outer;
    expect(calls).toBe(2);
  });

  it('idle() waits for the run under way and ignores its failure', async () => {
    const g = gated();
    const run = new CoalescedRun(g.task);
    void run.run();
    let idle = false;
    const waiting = run.idle().then(() => (idle = true));
    await Promise.resolve();
    expect(idle).toBe(false);
    await g.release();
    await waiting;
    expect(idle).toBe(true);
  });
});
