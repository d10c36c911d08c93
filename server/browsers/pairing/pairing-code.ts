import { randomInt } from 'node:crypto';

/** Letters and digits a person reads and types without confusing them (no 0/O, 1/I/L). */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const GROUPS = 3;
const GROUP_LENGTH = 4;

/**
 * A one-time pairing code such as `K7QM-2XRD-9HPA`: 12 characters of a 31-letter alphabet, about
 * 59 bits, which nobody guesses within a code's few minutes of life.
 */
export function newPairingCode(): string {
  const groups = Array.from({ length: GROUPS }, () =>
    Array.from({ length: GROUP_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join(''),
  );
  return groups.join('-');
}

/** The code as issued, whatever case, spaces or dashes a person typed it with. */
export function normalizePairingCode(typed: string): string {
  const compact = typed.toUpperCase().replace(/[\s-]/g, '');
  const groups = compact.match(new RegExp(`.{1,${GROUP_LENGTH}}`, 'g')) ?? [];
  return groups.join('-');
}
