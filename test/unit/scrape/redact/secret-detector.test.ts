import { describe, expect, it } from 'vitest';
import { detectSecrets } from '../../../../server/scrape/enrich/redact/secret-detector';
import { found } from './found';

const secrets = (text: string) => found(text, detectSecrets);

// Built from parts, so that this file itself does not look like it leaks credentials.
const GITHUB = `ghp_${'A1b2C3d4E5'.repeat(3)}abcdef`;
const STRIPE = `sk_live_${'4eC39HqLyjWDarjtT1zdp7dc'}`;
const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0.' +
  'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
const PEM = [
  '-----BEGIN RSA PRIVATE KEY-----',
  'MIIEowIBAAKCAQEA7bq',
  'c2VjcmV0==',
  '-----END RSA PRIVATE KEY-----',
].join('\n');

describe('secret detection', () => {
  it.each([
    [`export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE`, 'AKIAIOSFODNN7EXAMPLE'],
    [`token ${GITHUB} in a log`, GITHUB],
    [`Slack xoxb-123456789012-abcdefghijKL`, 'xoxb-123456789012-abcdefghijKL'],
    [`stripe.api_key = "${STRIPE}"`, STRIPE],
    [`maps?key=AIzaSyA${'x'.repeat(32)}`, `AIzaSyA${'x'.repeat(32)}`],
    [`OPENAI_API_KEY: sk-proj-${'Ab3'.repeat(16)}`, `sk-proj-${'Ab3'.repeat(16)}`],
    [`Authorization: Bearer ${JWT}`, JWT],
    [`cookie session=${JWT};`, JWT],
    [PEM, PEM],
    ['postgres://admin:s3cr3t-pw@db.example.com:5432/app', 's3cr3t-pw'],
    ['password=hunter2', 'hunter2'],
    ['DB_PASSWORD: "correct-horse-9"', 'correct-horse-9'],
    ['{"apiKey": "abcd1234efgh"}', 'abcd1234efgh'],
    ['https://x.test/reset?token=9f8e7d6c5b4a&next=/', '9f8e7d6c5b4a'],
    ['Password: Tr0ub4dor&3', 'Tr0ub4dor'],
  ])('finds the secret in %j', (text, secret) => {
    expect(secrets(text)).toEqual([secret]);
  });

  it.each([
    ['Forgot your password? Reset it here.'],
    ['Password: at least eight characters'],
    ['password: ********'],
    ['api_key = ${API_KEY}'],
    ['client_secret: <your-client-secret>'],
    ['tokenizer = bert-base'],
    ['author = Jane'],
    ['{"password":"Passwords","token":"match"} (a page\'s translations and code)'],
    ['config={token:!0},secret:null}'],
    ['key=window.SETTINGS.storefrontAccessToken'],
    ['the keyboard shortcut is ctrl+k'],
    [`task-${'a'.repeat(40)} is a slug, not a key`],
    ['eyJub3QiOiJhIGp3dCJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlMTIz (header without alg)'],
    ['-----BEGIN PUBLIC KEY-----\nMIIBIjANBg\n-----END PUBLIC KEY-----'],
    ['Bearer short'],
  ])('leaves %j alone', (text) => {
    expect(secrets(text)).toEqual([]);
  });
});
