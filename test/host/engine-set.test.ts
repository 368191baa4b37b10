import { describe, expect, it } from 'vitest';
import type { Engine } from '../../src/core/engine.js';
import { assembleEngines, type EngineFactories } from '../../src/host/engine-set.js';
import { OptionsError } from '../../src/core/options.js';

interface Made extends Engine { from: unknown; closed: number }

function engine(prefix: string, from: unknown = 'given', failClose = false): Made {
  const e: Made = {
    prefixes: [prefix],
    from,
    closed: 0,
    handle: async () => undefined,
    close: async () => {
      e.closed++;
      if (failClose) throw new Error('close failed');
    },
  };
  return e;
}

function factories(opts: { failMock?: boolean; failTrackerClose?: boolean } = {}) {
  const made: Made[] = [];
  const f: EngineFactories<{ m: number }, { t: string }> = {
    mock: (o) => {
      if (opts.failMock) throw new OptionsError('mock.x', 'is wrong');
      const e = engine('/api', o);
      made.push(e);
      return e;
    },
    tracker: (o) => {
      const e = engine('/_tracker', o, opts.failTrackerClose);
      made.push(e);
      return e;
    },
    trackerDefaults: { t: 'defaults' },
  };
  return { f, made };
}

describe('assembleEngines (the one engine assembly of every host)', () => {
  it('orders tracker, mock, extra engines; owns only what it created', async () => {
    const { f } = factories();
    const extra = engine('/x');
    const set = await assembleEngines({ mock: { m: 1 }, tracker: { t: 'mine' }, engines: [extra] }, f);
    expect(set.engines.map((e) => e.prefixes[0])).toEqual(['/_tracker', '/api', '/x']);
    expect(set.owned).toEqual([set.tracker, set.mock]);
    expect((set.mock as Made).from).toEqual({ m: 1 });
    const given = engine('/api');
    const set2 = await assembleEngines({ mock: given, tracker: true }, f);
    expect(set2.mock).toBe(given);
    expect(set2.owned).toEqual([set2.tracker]);
    expect((set2.tracker as Made).from).toEqual({ t: 'defaults' });
    await set2.close();
    expect(given.closed).toBe(0);
    expect((set2.tracker as Made).closed).toBe(1);
  });

  it('tracker false / null and no mock: no engines', async () => {
    const { f } = factories();
    expect((await assembleEngines({ tracker: false, mock: null }, f)).engines).toEqual([]);
  });

  it('bad sources are OptionsErrors naming the option; nothing is left open', async () => {
    const { f, made } = factories({ failMock: true });
    await expect(assembleEngines({ tracker: 'yes' as never }, f)).rejects.toThrow(/"tracker" must be collector options, true, or an engine/);
    await expect(assembleEngines({ mock: 3 as never }, f)).rejects.toThrow(/"mock" must be mock API options or an engine/);
    await expect(assembleEngines({ tracker: true, engines: [{} as Engine] }, f)).rejects.toThrow(/"engines" must hold engines/);
    expect(made).toHaveLength(0); // extra engines are checked before anything is created
    await expect(assembleEngines({ tracker: true, mock: { m: 1 } }, f)).rejects.toThrow(/mock\.x/);
    expect(made).toHaveLength(1);
    expect(made[0]!.closed).toBe(1); // the collector created before the failure was closed
  });

  it('close() closes every owned engine even when one fails, once', async () => {
    const { f, made } = factories({ failTrackerClose: true });
    const set = await assembleEngines({ tracker: true, mock: { m: 1 } }, f);
    await set.close();
    await set.close();
    expect(made.map((e) => e.closed)).toEqual([1, 1]);
  });
});
