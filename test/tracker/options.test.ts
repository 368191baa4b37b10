import { describe, expect, it } from 'vitest';
import { OptionsError } from '../../src/core/options.js';
import { createCollector } from '../../src/tracker/collector.js';
import { newEventId } from '../../src/tracker/event-id.js';
import { parseTimestamp } from '../../src/tracker/timestamp.js';

describe('collector options', () => {
  const bad: Array<[string, unknown, string]> = [
    ['appId missing', {}, 'tracker.appId'],
    ['appId empty', { appId: '' }, 'tracker.appId'],
    ['unknown key', { appId: 'a', limit: {} }, 'tracker.limit'],
    ['basePath relative', { appId: 'a', basePath: 'x' }, 'tracker.basePath'],
    ['basePath root', { appId: 'a', basePath: '/' }, 'tracker.basePath'],
    ['limits.maxEvents', { appId: 'a', limits: { maxEvents: 0 } }, 'tracker.limits.maxEvents'],
    ['limits.maxBodyBytes', { appId: 'a', limits: { maxBodyBytes: 'big' } }, 'tracker.limits.maxBodyBytes'],
    ['limits typo', { appId: 'a', limits: { maxEvent: 3 } }, 'tracker.limits.maxEvent'],
    ['retention.maxAgeMs', { appId: 'a', retention: { maxAgeMs: -1 } }, 'tracker.retention.maxAgeMs'],
    ['storage.fs', { appId: 'a', storage: { fs: {} } }, 'tracker.storage.fs'],
    ['storage.dir', { appId: 'a', storage: { dir: '../up' } }, 'tracker.storage.dir'],
    ['cors.origins', { appId: 'a', cors: { origins: [42] } }, 'tracker.cors.origins[0]'],
    ['logLevel', { appId: 'a', logLevel: 'loud' }, 'tracker.logLevel'],
    ['readCompression', { appId: 'a', readCompression: 'br' }, 'tracker.readCompression'],
    ['storageDir without the Node entry (browser)', { appId: 'a', storageDir: 'data' }, 'tracker.storageDir'],
  ];
  for (const [name, options, option] of bad) {
    it(`rejects ${name} naming ${option}`, () => {
      let err: unknown;
      try {
        createCollector(options as never);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(OptionsError);
      expect((err as OptionsError).option).toBe(option);
    });
  }

});

describe('timestamps', () => {
  it('parses offsets and fractions to the same instant as Date', () => {
    for (const s of ['2026-03-01T10:00:00Z', '2026-03-01T10:00:00.123Z', '2026-03-01T12:00:00+02:00', '2026-03-01T05:30:00.5-04:30', '2024-02-29T23:59:59.999999Z']) {
      expect(parseTimestamp(s), s).toBe(Date.parse(s.replace(/(\.\d{3})\d+/, '$1')));
    }
    expect(parseTimestamp('2026-03-01T12:00:00+0200')).toBe(Date.parse('2026-03-01T10:00:00Z'));
    expect(parseTimestamp('2026-03-01T10:00Z')).toBe(Date.parse('2026-03-01T10:00:00Z'));
  });
  it('refuses what is not a zoned ISO-8601 date-time', () => {
    for (const s of ['2026-03-01', '2026-03-01T10:00:00', '2023-02-29T00:00:00Z', '2026-13-01T00:00:00Z', '2026-03-01T24:00:00Z', '2026-03-01 10:00:00Z', 'Sun, 01 Mar 2026 10:00:00 GMT', '']) {
      expect(typeof parseTimestamp(s), s).toBe('string');
    }
  });
});

describe('event ids', () => {
  it('are UUIDv7, unique and increasing within one millisecond and across', () => {
    const ids = Array.from({ length: 5000 }, (_, i) => newEventId(1_700_000_000_000 + Math.floor(i / 1000)));
    expect(new Set(ids).size).toBe(5000);
    expect([...ids].sort()).toEqual(ids);
    expect(ids[0]).toMatch(/^018bcfe5-6800-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
