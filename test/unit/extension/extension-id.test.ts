import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EXTENSION_ID, EXTENSION_PUBLIC_KEY } from '../../../shared/extension-identity';

describe('the pinned extension id', () => {
  it('is the one Chromium derives from the manifest key', () => {
    const hex = createHash('sha256')
      .update(Buffer.from(EXTENSION_PUBLIC_KEY, 'base64'))
      .digest('hex')
      .slice(0, 32);
    const id = [...hex].map((digit) => String.fromCharCode(97 + parseInt(digit, 16))).join('');
    expect(EXTENSION_ID).toBe(id);
  });
});
