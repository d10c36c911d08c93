import { describe, expect, it } from 'vitest';
import { newPairingCode, normalizePairingCode } from '../../../server/browsers/pairing/pairing-code';

describe('pairing codes', () => {
  it('are three groups of four unambiguous characters, different every time', () => {
    const codes = new Set(Array.from({ length: 200 }, () => newPairingCode()));
    expect(codes.size).toBe(200);
    for (const code of codes)
      expect(code).toMatch(/^[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}$/);
  });

  it('match however a person types them', () => {
    expect(normalizePairingCode('k7qm 2xrd 9hpa')).toBe('K7QM-2XRD-9HPA');
    expect(normalizePairingCode(' K7QM-2XRD-9HPA ')).toBe('K7QM-2XRD-9HPA');
    expect(normalizePairingCode('k7qm2xrd9hpa')).toBe('K7QM-2XRD-9HPA');
  });
});
