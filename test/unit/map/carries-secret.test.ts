import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { carriesSecret, looksSecret } from '../../../server/products/map/carries-secret';

const secret = (path: string) => carriesSecret(new URL(path, 'https://site.example'));

/** Paths of ordinary sites: none of them may be kept out of the public map. */
const ORDINARY = [
  '/',
  '/blog/2024/my-first-post',
  '/blog/2024/01/15/why-we-moved-to-typescript',
  '/docs/getting-started',
  '/docs/api/v2/scrape-endpoint',
  '/products/B07XJ8C8F5',
  '/products/SKU-12345-XL',
  '/p/WH1000XM4',
  '/shop/iPhone15ProMaxCase',
  '/shop/RTX4090FoundersEdition',
  '/phones/SM-G998B-Galaxy-S21-Ultra',
  '/release-2024-01-notes-v2-final',
  '/guides/HTMLParserTutorial',
  '/wiki/GettingStartedWithReact',
  '/images/IMG_20240115_123456.jpg',
  '/releases/v1.2.3',
  '/share/twitter',
  '/share',
  '/invite/friends',
  '/reset/password',
  '/account/reset-password',
  '/verify/email',
  '/keys/new',
  '/token/overview',
  '/sessions/keynote-2024',
  '/preview/new-features',
  '/averyveryverylongwordwithoutanyhyphens',
  '/category/Home-and-Garden/Outdoor-Furniture',
  '/news/2023-12-31-year-in-review',
  '/users/jane-doe/repositories',
  '/@jane',
  '/status/1732871234567890123',
  '/docs/private-beta-program',
  '/blog/why-our-cap-table-matters',
  '/p/Galaxy-S24-Ultra-256GB',
  '/releases/v10.2.3-rc1',
  '/a/b/c/d/e/f',
];

/** Capabilities as sites hand them out: every one stays in its team's own map. */
const SECRETS = [
  '/share/TEAM-A-CAPABILITY-1732871234567/doc',
  '/share/aB3dE9fK/doc',
  '/invite/abc123',
  '/invite/xK9mQ2',
  '/reset/839201',
  '/password-reset/kqzvbxnmtrpl',
  '/s/share/Zm9vYmFyYmF6/view',
  '/join/TqWzKpLm',
  '/confirm/7f3a9c2e/now',
  `/d/${randomUUID()}`,
  `/orders/${randomUUID().toUpperCase()}/receipt`,
  '/api/eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig/download',
  `/files/${'0123456789abcdef'.repeat(2)}`,
  '/commit/9fceb02d0ae598e95dc970b74767f19372d61af8',
  '/x/x7Gk2PqZ9mLw4RtY',
  '/x/QmXkZpLtRwYvBnHs',
  '/unsubscribe/user%2DA1B2C3D4',
  // Found by re-running the red team: a short share id, a marker inside the segment, a person.
  '/s/Xk9pQ2mZ789/doc',
  '/files/TEAM-A-CAPABILITY-1732871234567/doc',
  '/u/jane.doe@corp.example/invoices',
  '/files/invite_xK9mQ2',
  // An unlisted video is shared by its link alone: its id is the capability.
  '/watch/dQw4w9WgXcQ',
];

describe('secret-looking path segments', () => {
  it.each(ORDINARY)('leaves the ordinary path %s in the public map', (path) => {
    expect(secret(path)).toBe(false);
  });

  it.each(SECRETS)('keeps %s out of the public map', (path) => {
    expect(secret(path)).toBe(true);
  });

  it('recognises random tokens as sites make them, base62 and base64url alike', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    const base62 = (length: number) =>
      [...randomBytes(length)].map((byte) => alphabet[byte % alphabet.length]).join('');
    const missed = [];
    for (let round = 0; round < 500; round += 1) {
      for (const token of [
        base62(22),
        base62(32),
        randomBytes(24).toString('base64url'),
        randomBytes(16).toString('hex'),
      ]) {
        if (!looksSecret(token)) missed.push(token);
      }
    }
    // A short random token can read as a word by chance: about 2 in 100 of these do.
    expect(missed.length).toBeLessThan(100);
  });

  it('looks at the host name too: random subdomains are capabilities, ordinary ones are not', () => {
    for (const host of [
      'docs.example.com',
      'www.example.co.uk',
      'my-app-git-feature-x.vercel.app',
      '127.0.0.1',
    ]) {
      expect(carriesSecret(new URL(`https://${host}/`))).toBe(false);
    }
    expect(carriesSecret(new URL('https://x7gk2pqz9mlw4rty3b.tunnel.example/'))).toBe(true);
    expect(carriesSecret(new URL(`https://${randomUUID()}.preview.example/`))).toBe(true);
  });

  it('reads percent-encoded segments as their text', () => {
    expect(looksSecret('%7Bnot%20a%20token%7D')).toBe(false);
    expect(looksSecret('%E0%A4%A')).toBe(false);
    expect(secret('/share/%61%62%63%31%32%33')).toBe(true);
  });
});
