/**
 * How the json-db driver (json-db.ts) persists its document: every change is in the file at most
 * `delayMs` after it was made, or right after the rewrite running at that moment ends. A burst of
 * changes is one rewrite; never two rewrites at once; every rewrite takes the whole current
 * document, so no change is lost. A failed rewrite is tried again after `delayMs` (once closed:
 * by `saveAll`). Its states and their moves: json-db-saver-state.ts (saved | waiting | writing |
 * failed | held); every change of state goes through `on(event)`, which starts the new state's
 * timer or rewrite and ends the old one's timer.
 */
import { saverMove, type SaverEvent } from './json-db-saver-state.js';

type SaveState =
  | { name: 'saved' }
  | { name: 'held' }
  | { name: 'waiting' | 'failed'; timer: ReturnType<typeof setTimeout> }
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
const SAVED: SaveState = { name: 'saved' };
const HELD: SaveState = { name: 'held' };

export class DocumentSaver {
  private state: SaveState = SAVED;
  private closed = false;
  /** Changes not in the file yet (0 in `saved`; more in `waiting`, `failed` and `held`). */
  unsaved = 0;
  /** When the last rewrite ended (watch reports soon after may be its echo). */
  rewroteAt = -Infinity;

  constructor(private readonly o: SaverOptions) {}

  /** The state's name (json-db-saver-state.ts). */
  get stateName(): SaveState['name'] {
    return this.state.name;
  }

  /** A rewrite is on its way (reports of a change to the file are our own). */
  get writing(): boolean {
    return this.state.name === 'writing';
  }

  /** A change of the document: the file is rewritten within `delayMs`. */
  changed(): void {
    this.unsaved++;
    this.on('change');
  }

  /** The file's content won over the changes that waited (an outside edit): nothing to save. */
  discard(): void {
    this.unsaved = 0;
    this.on('discard');
  }

  /** Rewrites the file now (or returns the rewrite on its way). */
  rewrite(): Promise<void> {
    this.on('flush');
    return this.state.name === 'writing' ? this.state.done : Promise.resolve();
  }

  /**
   * Rewrites until nothing waits. `giveUp`: stop when a rewrite saved nothing (the inner Vfs
   * refuses) rather than retry forever.
   */
  async saveAll(giveUp: boolean): Promise<void> {
    while (this.state.name !== 'saved') {
      const before = this.unsaved;
      await this.rewrite();
      if (giveUp && this.unsaved >= before && !this.writing) break;
    }
  }

  /** From now on no timer is started: what waits is written by `saveAll`. */
  close(): void {
    this.closed = true;
    this.on('close');
  }

  /** The one way the state changes: the table's move for `event`; staying starts nothing new. */
  private on(event: SaverEvent): void {
    const from = this.state;
    const to = saverMove(from.name, event, this.closed);
    if (to === from.name) return;
    if (from.name === 'waiting' || from.name === 'failed') clearTimeout(from.timer);
    if (to === 'writing') {
      // `writing` before the write starts: the reports it causes are ours.
      const writing = { name: to, done: Promise.resolve() };
      this.state = writing;
      writing.done = this.write();
    } else {
      this.state = to === 'saved' ? SAVED : to === 'held' ? HELD : { name: to, timer: setTimeout(() => this.on('due'), this.o.delayMs) };
    }
  }

  /** One rewrite of the whole document; ends with `caughtUp`, `behind` or `writeFailed`. */
  private async write(): Promise<void> {
    const writes = this.unsaved;
    const text = this.o.text();
    let event: SaverEvent;
    try {
      await this.o.write(text);
      this.unsaved -= Math.min(writes, this.unsaved);
      event = this.unsaved > 0 ? 'behind' : 'caughtUp';
    } catch (err) {
      this.o.onFailure(err);
      event = this.unsaved > 0 ? 'writeFailed' : 'caughtUp';
    }
    this.rewroteAt = now();
    this.on(event);
  }
}
