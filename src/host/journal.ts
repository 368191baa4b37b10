/**
 * The devtools request journal as the host attaches it: a mock API's own requests reach it
 * through the engine's `observe` hook (with the scenario and session that answered), the webhooks it
 * sends through `webhooks.observe` (outgoing rows), other engines' through
 * `journaled` (src/devtools/journaled-engine.ts). The engine keeps no journal; its `journal`
 * option (false, true or { size, bodyLimit }) is resolved here, where it is used.
 * One journal per mock API engine: a ready-made engine assembled by two hosts shares it.
 */
import type { Engine } from '../core/engine.js';
import { isMockApi } from '../engine/is-mock-api.js';
import { createJournal, resolveJournalOptions, type Journal } from '../devtools/journal.js';

const journals = new WeakMap<Engine, Journal | null>();

/** The journal fed by `mock`'s requests (made on first call), or null when its option says off. */
export function journalFor(mock: Engine | undefined): Journal | null {
  if (!isMockApi(mock)) return null;
  let journal = journals.get(mock);
  if (journal !== undefined) return journal;
  const options = resolveJournalOptions(mock.options.journal, 'mock.journal');
  journal = options.size === 0 ? null : createJournal(options);
  if (journal) {
    const j = journal;
    mock.observe((x, scenario, session) => j.record(x, scenario, session));
    // The webhooks it sends, as outgoing rows linked to their cause (engine/webhooks/).
    mock.webhooks.observe((attempt) => j.recordOutgoing(attempt));
  }
  journals.set(mock, journal);
  return journal;
}
