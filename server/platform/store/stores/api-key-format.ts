import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * Generated keys: `fc-th_` + 43 base62 characters of randomness (256 bits) + 6 base62 characters
 * of CRC32 over the random part. The `fc-` keeps the shape Firecrawl clients and tooling expect;
 * `th_` and the checksum let a secret scanner recognise a leaked Tabhive key without a database
 * lookup (GitHub's token format, docs/teams-and-credits.md).
 */
export const API_KEY_PREFIX = 'fc-th_';
const RANDOM_CHARS = 43;
const CHECKSUM_CHARS = 6;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function toBase62(value: bigint, width: number): string {
  let text = '';
  let rest = value;
  while (rest > 0n) {
    text = BASE62[Number(rest % 62n)] + text;
    rest /= 62n;
  }
  return text.padStart(width, '0');
}

const checksum = (body: string) => toBase62(BigInt(crc32(body)), CHECKSUM_CHARS);

/** A new random API key; shown to its owner once and stored only as a digest. */
export function generateApiKey(): string {
  const body = toBase62(BigInt(`0x${randomBytes(32).toString('hex')}`), RANDOM_CHARS);
  return `${API_KEY_PREFIX}${body}${checksum(body)}`;
}

/** Whether `text` has the shape and checksum of a key made by `generateApiKey`. */
export function isGeneratedApiKey(text: string): boolean {
  if (!text.startsWith(API_KEY_PREFIX)) return false;
  const rest = text.slice(API_KEY_PREFIX.length);
  if (rest.length !== RANDOM_CHARS + CHECKSUM_CHARS || ![...rest].every((c) => BASE62.includes(c)))
    return false;
  const body = rest.slice(0, RANDOM_CHARS);
  return rest.slice(RANDOM_CHARS) === checksum(body);
}

/**
 * What a listing shows of a key: enough to tell keys apart, far too little to use one. Of a key
 * chosen by hand (API_KEY may be as short as 8 characters) it shows no more than a quarter.
 */
export const keyHint = (apiKey: string) =>
  isGeneratedApiKey(apiKey)
    ? `${apiKey.slice(0, API_KEY_PREFIX.length + 4)}…`
    : `${apiKey.slice(0, Math.min(4, Math.floor(apiKey.length / 4)))}…`;
