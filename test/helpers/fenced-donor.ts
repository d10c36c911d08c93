import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { startExtensionBrowser } from './extension-browser';
import { startPairedDonor } from './paired-donor';
import { startTestTabhive } from './start-test-tabhive';

export interface FencedDonor {
  /** A Tabhive without browsers of its own: only the donor takes the team's tasks. */
  tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
  donor: Awaited<ReturnType<typeof startExtensionBrowser>>;
  /** Every request that reached the site outside the fence, with the cookie it carried. */
  outsideHits: Array<{ path: string; cookie: string }>;
  /** A page of the site outside the fence, the owner's webmail on 127.0.0.3. */
  outsideUrl(pathname: string): string;
  /** A page of the allowed site, `localhost`. */
  fencedUrl(pathname: string): string;
  close(): Promise<void>;
}

const listen = (server: Server, host: string) =>
  new Promise<void>((resolve) => server.listen(0, host, resolve));
const close = (server: Server) => new Promise((resolve) => server.close(resolve));

/**
 * A person's donated browser whose owner allows `localhost` only, where each page's body is
 * `fencedBody(pathname, outsideUrl)`; outside the fence is 127.0.0.3, the owner's webmail, where
 * the owner is logged in (the cookie `session`).
 */
export async function startFencedDonor(
  fencedBody: (pathname: string, outsideUrl: (pathname: string) => string) => string,
): Promise<FencedDonor> {
  const outsideHits: FencedDonor['outsideHits'] = [];
  const outside = createServer((request, response) => {
    outsideHits.push({ path: request.url ?? '', cookie: request.headers.cookie ?? '' });
    response.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Webmail inbox</h1>');
  });
  const outsideUrl = (pathname: string) =>
    `http://127.0.0.3:${(outside.address() as AddressInfo).port}${pathname}`;
  const fenced = createServer((request, response) => {
    const { pathname } = new URL(request.url ?? '/', 'http://localhost');
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end(`<!doctype html><html><body>${fencedBody(pathname, outsideUrl)}</body></html>`);
  });
  const fencedUrl = (pathname: string) =>
    `http://localhost:${(fenced.address() as AddressInfo).port}${pathname}`;
  let tabhive: FencedDonor['tabhive'] | undefined;
  try {
    await listen(outside, '127.0.0.3');
    await listen(fenced, '127.0.0.1');
    tabhive = await startTestTabhive({ browsers: 0 });
    const { donor } = await startPairedDonor({
      tabhive,
      donation: { enabled: true, allowedDomains: ['localhost'], maxTabs: 1, allowJavascript: false },
      cookies: [{ name: 'session', value: 'DONOR-WEBMAIL-SESSION', url: outsideUrl('/'), sameSite: 'Lax' }],
    });
    const started = tabhive;
    return {
      tabhive: started,
      donor,
      outsideHits,
      outsideUrl,
      fencedUrl,
      async close() {
        await donor.close();
        await started.stop();
        await close(fenced);
        await close(outside);
      },
    };
  } catch (err) {
    // A start that failed half-way leaves nothing running for the next test file.
    await tabhive?.stop();
    await close(fenced);
    await close(outside);
    throw err;
  }
}
