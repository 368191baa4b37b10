/**
 * A task that runs one at a time and is never missed: asked while it runs (however often), it
 * runs once more after the current run, and every caller gets the promise of the runs that cover
 * its ask. Used where "something changed, go (again)" must not start two runs at once nor lose
 * a change that came during a run: re-reading a file after change reports, a delivery loop
 * woken by new items, saving a file after each change.
 *
 *   const saving = new CoalescedRun(() => save());
 *   onChange(() => void saving.run());
 *   await saving.idle(); // nothing running, nothing asked
 *
 * `task(round)` gets the round within this run (0 first); `repeat(round)` (default: always)
 * decides whether a round that was asked for may still start (a loop that stopped, a closed
 * driver). A task may ask for another round itself (`again()`). A failed round ends the run
 * (its promise rejects) and drops the rounds asked for meanwhile; the next `run()` starts anew.
 */
export class CoalescedRun {
  /** A run is under way (set and cleared synchronously, so no ask falls between two runs). */
  private busy = false;
  private asked = false;
  /** The promise of the run under way (or of the last one). */
  private current: Promise<void> = Promise.resolve();

  constructor(
    private readonly task: (round: number) => Promise<void> | void,
    private readonly repeat: (round: number) => boolean = () => true,
  ) {}

  /** Whether a run is under way. */
  get running(): boolean {
    return this.busy;
  }

  /** The promise of the run under way (rejecting as it does), or undefined. Asks for nothing. */
  get underWay(): Promise<void> | undefined {
    return this.busy ? this.current : undefined;
  }

  /** Runs the task now, or once more after the run under way (whose promise it returns). */
  run(): Promise<void> {
    if (this.busy) {
      this.asked = true;
      return this.current;
    }
    this.busy = true;
    let settle!: { resolve: () => void; reject: (err: unknown) => void };
    // Assigned before the first round starts: a task that asks again at once gets this run.
    this.current = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    this.rounds().then(settle.resolve, settle.reject);
    return this.current;
  }

  /** Asks for one more round of the run under way (no-op when none is). */
  again(): void {
    if (this.busy) this.asked = true;
  }

  /** Settles when no run is under way (rejections are for the callers of `run()`). */
  async idle(): Promise<void> {
    while (this.busy) await this.current.catch(() => undefined);
  }

  private async rounds(): Promise<void> {
    let round = 0;
    try {
      do {
        this.asked = false;
        await this.task(round++);
      } while (this.asked && this.repeat(round));
    } finally {
      // In the same turn as the last check of `asked`: an ask after this starts a new run.
      this.busy = false;
      this.asked = false;
    }
  }
}
