import { Counter, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { tallyByTeam } from '../../../server/platform/metrics/team-tally';
import { attributeUsage } from '../../../server/platform/store/stores/usage-attribution';

describe('tallyByTeam', () => {
  it("counts as before, and keeps what each team's work added apart", async () => {
    const counter = tallyByTeam(
      new Counter({
        name: 'pages',
        help: 'pages',
        labelNames: ['engine'] as const,
        registers: [new Registry()],
      }),
    );
    counter.inc({ engine: 'browser' });
    attributeUsage({ teamId: 'a', apiKey: undefined }, () => {
      counter.inc({ engine: 'browser' });
      counter.inc({ engine: 'http' }, 2);
    });
    await attributeUsage({ teamId: 'b', apiKey: undefined }, async () => {
      await Promise.resolve();
      counter.inc({ engine: 'browser' });
    });
    const all = (await counter.get()).values.reduce((sum, value) => sum + value.value, 0);
    expect(all).toBe(5);
    expect(counter.byTeam.valuesOf('a')).toEqual([
      { labels: { engine: 'browser' }, value: 1 },
      { labels: { engine: 'http' }, value: 2 },
    ]);
    expect(counter.byTeam.valuesOf('b')).toEqual([{ labels: { engine: 'browser' }, value: 1 }]);
    expect(counter.byTeam.teams().sort()).toEqual(['a', 'b']);
    expect(counter.byTeam.valuesOf('c')).toEqual([]);
  });

  it('tallies nothing the counter refused', () => {
    const counter = tallyByTeam(new Counter({ name: 'n', help: 'n', registers: [new Registry()] }));
    attributeUsage({ teamId: 'a', apiKey: undefined }, () => expect(() => counter.inc(-1)).toThrow());
    expect(counter.byTeam.valuesOf('a')).toEqual([]);
  });
});
