import { describe, expect, it } from 'vitest';
import { keyHint } from '../../../server/api/cli/tabhive/key-hint';
import { unauthorizedHint } from '../../../server/api/cli/tabhive/unauthorized-hint';

const GENERATED = 'fc-th_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ0123456789abcx9Yz';

describe('keyHint', () => {
  it('names a key by its start, as key lists do, and its end, as usage by key does', () => {
    expect(keyHint(GENERATED)).toBe('fc-th_1a2B…x9Yz');
    expect(keyHint('fc-7e57a9e0000000000000000000000001')).toBe('fc-7…0001');
  });

  it('shows at most a quarter of a short key chosen by hand', () => {
    expect(keyHint('fc-not-a-key')).toBe('fc-…');
    expect(keyHint('secret12')).toBe('se…');
  });
});

describe('unauthorizedHint', () => {
  it('says which key was refused, where it came from, and every way to give another', () => {
    const hint = unauthorizedHint({ apiKey: GENERATED, source: 'environment' }, 'npx tabhive');
    expect(hint).toContain('refused the key fc-th_1a2B…x9Yz, from TABHIVE_API_KEY');
    expect(hint).not.toContain(GENERATED);
    expect(hint).toContain('npx tabhive --api-key <key>');
    expect(hint).toContain('export TABHIVE_API_KEY=<key>');
    expect(hint).toContain('$DATA_DIR/api-key');
  });

  it('names the option and the key file as sources', () => {
    expect(unauthorizedHint({ apiKey: GENERATED, source: 'option' }, 'tabhive')).toContain(
      'given with --api-key',
    );
    expect(
      unauthorizedHint({ apiKey: GENERATED, source: 'file', file: '/srv/data/api-key' }, 'tabhive'),
    ).toContain('read from /srv/data/api-key');
  });

  it('says when no key was sent, and where the key file was looked for', () => {
    const hint = unauthorizedHint(
      { apiKey: undefined, source: 'none', file: '/srv/data/api-key' },
      'tabhive',
    );
    expect(hint).toMatch(/^No API key was sent \(no key file at \/srv\/data\/api-key\)\./);
  });
});
