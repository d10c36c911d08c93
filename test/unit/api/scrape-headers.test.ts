import { describe, expect, it } from 'vitest';
import { ScrapeRequestV1 } from '../../../shared/api/v1/scrape-request';
import { RESERVED_HEADER_MESSAGE, ScrapeOptionsV2 } from '../../../shared/api/v2/scrape-options';

function issues(input: unknown) {
  const result = ScrapeOptionsV2.safeParse(input);
  return result.success ? [] : result.error.issues;
}

describe('caller headers', () => {
  it.each([
    'Host',
    'host',
    'Connection',
    'Keep-Alive',
    'Proxy-Authorization',
    'Proxy-Connection',
    'TE',
    'Trailer',
    'Transfer-Encoding',
    'Upgrade',
    'Content-Length',
  ])('refuses %s, naming it', (name) => {
    expect(issues({ headers: { 'X-Fine': 'yes', [name]: 'internal-admin.corp' } })).toEqual([
      expect.objectContaining({ path: ['headers', name], message: `${RESERVED_HEADER_MESSAGE}: ${name}` }),
    ]);
  });

  it('keeps the headers a caller may send, look-alikes of the reserved ones included', () => {
    const headers = {
      Authorization: 'Bearer token',
      Cookie: 'a=b',
      'User-Agent': 'test',
      'X-Forwarded-Host': 'example.com',
      Hostname: 'x',
      Tea: 'green',
      'Content-Type': 'text/plain',
    };
    expect(ScrapeOptionsV2.parse({ headers }).headers).toEqual(headers);
  });

  it('refuses them in v1 requests too', () => {
    const result = ScrapeRequestV1.safeParse({ url: 'https://example.com', headers: { Host: 'x' } });
    expect(result.success).toBe(false);
  });
});
