import { describe, expect, it } from 'vitest';
import { formatTime, keyHintText } from '../../../console/format';

describe('formatTime', () => {
  it("writes a moment in the viewer's zone, with the zone", () => {
    expect(formatTime('2025-01-01T00:00:00.000Z', { timeZone: 'UTC' })).toBe('2025-01-01 00:00:00 UTC');
    expect(formatTime('2025-01-01T00:00:00.000Z', { timeZone: 'Europe/Berlin' })).toMatch(
      /^2025-01-01 01:00:00 (CET|GMT\+1)$/,
    );
    expect(formatTime('2025-07-01T12:30:05Z', { timeZone: 'America/New_York' })).toMatch(
      /^2025-07-01 08:30:05 \S+$/,
    );
  });

  it('leaves what is no moment as it is', () => {
    expect(formatTime('soon')).toBe('soon');
  });
});

describe('keyHintText', () => {
  it('writes every key hint as its start and end around one ellipsis', () => {
    expect(keyHintText('fc-1…')).toBe('fc-1…');
    expect(keyHintText('fc-1……')).toBe('fc-1…');
    expect(keyHintText('fc-…05cc')).toBe('fc-…05cc');
    expect(keyHintText('fc-th_1a2B…x9Yz')).toBe('fc-th_1a2B…x9Yz');
    expect(keyHintText('conf')).toBe('conf…');
  });
});
