import { describe, expect, it } from 'vitest';
import {
  API_KEY_PREFIX,
  generateApiKey,
  isGeneratedApiKey,
  keyHint,
} from '../../../server/platform/store/stores/api-key-format';

describe('generated API keys', () => {
  it('carry 256 random bits behind a typed prefix, with a checksum scanners can verify', () => {
    const keys = Array.from({ length: 200 }, generateApiKey);
    expect(new Set(keys).size).toBe(200);
    for (const key of keys) {
      expect(key).toMatch(/^fc-th_[0-9A-Za-z]{49}$/);
      expect(isGeneratedApiKey(key)).toBe(true);
    }
    const key = keys[0]!;
    const flipped = key.slice(0, -1) + (key.endsWith('0') ? '1' : '0');
    expect(isGeneratedApiKey(flipped)).toBe(false);
    expect(isGeneratedApiKey('fc-7e57a9e0000000000000000000000001')).toBe(false);
  });

  it('are hinted at in listings without giving them away', () => {
    const key = generateApiKey();
    expect(keyHint(key)).toBe(`${key.slice(0, API_KEY_PREFIX.length + 4)}…`);
    expect(keyHint('short-key')).toBe('he…'.replace('he', 'sh'));
  });
});
