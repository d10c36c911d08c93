import { describe, expect, it } from 'vitest';
import { relayNavigationCheck } from '../../../server/products/live-view/cdp-relay-navigation-check';
import { createUrlPolicy } from '../../../server/platform/url-policy/create-url-policy';

/** The production policy, with DNS answered by a table: public names and names that point inward. */
const check = relayNavigationCheck(
  createUrlPolicy({
    allowPrivateNetworks: false,
    lookup: async (hostname) => {
      const answers: Record<string, string[]> = {
        'public.example': ['93.184.215.14'],
        'rebind.example': ['127.0.0.1'],
      };
      const found = answers[hostname];
      if (found === undefined) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return found;
    },
  }),
);

describe("the server's look at a relay navigation", () => {
  it('lets about:blank and public pages go', async () => {
    expect(await check('about:blank')).toBeUndefined();
    expect(await check('https://public.example/page')).toBeUndefined();
  });

  it('refuses a public-looking name that resolves to loopback, before the browser goes', async () => {
    expect(await check('http://rebind.example:3101/secret')).toMatch(
      /^Page\.navigate to http:\/\/rebind\.example:3101 is refused by the URL policy/,
    );
  });

  it('names the scheme of a URL without an origin rather than "null"', async () => {
    const refusal = await check('file:///etc/passwd');
    expect(refusal).toMatch(/^Page\.navigate to a file: URL is refused/);
    expect(refusal).not.toContain('null');
  });

  it('leaves a name the server cannot resolve to the browser and its address guard', async () => {
    expect(await check('http://intranet.unknown/')).toBeUndefined();
  });
});
