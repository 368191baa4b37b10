/**
 * How the json-db driver (json-db.ts) persists its document: every change is in the file at most
 * `delayMs` after it was made, or right after the rewrite running at that moment ends. A burst of
 * changes is one rewrite; never two rewrites at once; every rewrite takes the whole current
 * document, so no change is lost. A failed rewrite is retried (after `delayMs`; at once while
 * closing).
 *
 *   saved      the file holds every change
 *   unsaved    changes wait, no rewrite planned (while closing: `saveAll` writes them)
 *   waiting    changes wait; the rewrite starts when the timer fires
 *   writing    a rewrite of the whole document is on its way; changes made meanwhile wait for the
 *              next one, and watch reports meanwhile are its own (`writing`)
 */
type SaveState =
  | { name: 'saved' }
  | { name: 'unsaved' }
  | { name: 'waiting'; timer: ReturnType<typeof setTimeout> }
  | { name: 'writing'; done: Promise<void> };

export interface SaverOptions {
  /** Most milliseconds between a change and the start of the rewrite that persists it. */
  delayMs: number;
  /** The whole document's text, as the next rewrite writes it. */
  text(): string;
  /** Writes the text (atomically) into the file. */
  write(text: string): Promise<void>;
  /** Told when a rewrite failed (it is retried). */
  onFailure(err: unknown): void;
}

const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

export class DocumentSaver {
  private state: SaveState = { name: 'saved' };
  private closing = false;
  /** Changes not in the file yet. */
  unsaved = 0;
  /** When the last rewrite ended (watch reports soon after may be its echo). */
  rewroteAt = -Infinity;

  constructor(private readonly o: SaverOptions) {}

  /** A rewrite is on its way (reports of a change to the file are our own). */
  get writing(): boolean {
    return this.state.name === 'writing';
  }

  /** A change of the document: the file is rewritten within `delayMs`. */
  changed(): void {
    this.unsaved++;
    if (this.state.name === 'saved') this.state = { name: 'unsaved' };
    this.plan();
  }

  /** The file's content won over the changes that waited (an outside edit): nothing to save. */
  discard(): void {
    this.unsaved = 0;
    if (this.state.name === 'waiting') clearTimeout(this.state.timer);
    if (this.state.name !== 'writing') this.state = { name: 'saved' };
  }

  /** Rewrites the file now (or returns the rewrite on its way). */
  rewrite(): Promise<void> {
    const state = this.state;
    if (state.name === 'writing') return state.done;
    if (state.name === 'waiting') clearTimeout(state.timer);
    if (this.unsaved === 0) {
      this.state = { name: 'saved' };
      return Promise.resolve();
    }
    const writes = this.unsaved;
    const text = this.o.text();
    let finished!: () => void;
    const done = new Promise<void>((resolve) => (finished = resolve));
    // `writing` before the write starts: the reports it causes are ours.
    this.state = { name: 'writing', done };
    void (async () => {
      try {
        await this.o.write(text);
        this.unsaved -= Math.min(writes, this.unsaved);
      } catch (err) {
        this.o.onFailure(err);
      } finally {
        this.rewroteAt = now();
      }
      this.state = { name: this.unsaved > 0 ? 'unsaved' : 'saved' };
      if (this.unsaved > 0) {
        if (this.closing) void this.rewrite();
        else this.plan();
      }
      finished();
    })();
    return done;
  }

  /**
   * Rewrites until nothing waits. `giveUp`: stop when a rewrite saved nothing (the inner Vfs
   * refuses) rather than retry forever.
   */
  async saveAll(giveUp: boolean): Promise<void> {
    while (this.unsaved > 0 || this.writing) {
      const before = this.unsaved;
      await this.rewrite();
      if (giveUp && this.unsaved >= before && !this.writing) break;
    }
  }

  /** From now on no timer is started: what waits is written by `saveAll`. */
  close(): void {
    this.closing = true;
  }

  /** Starts the timer of the next rewrite unless one is planned or on its way. */
  private plan(): void {
    if (this.state.name !== 'unsaved' || this.closing) return;
    const timer = setTimeout(() => void this.rewrite(), this.o.delayMs);
    this.state = { name: 'waiting', timer };
  }
}
