import type { ServerResponse } from 'node:http';

/** Hostname on the ad block list that block-ads tests resolve to loopback (--host-resolver-rules). */
export const AD_HOST = 'ib.adnxs.com';

const html = (response: ServerResponse, body: string, headers: Record<string, string> = {}, status = 200) => {
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
  response.end(body);
};

/**
 * Fixture pages whose response depends on the request: search results, a strict-CSP page, a
 * header echo, an ad-carrying page and a "bot wall". Returns false for paths it does not serve.
 */
export async function handleBehaviours(url: URL, response: ServerResponse, port: number): Promise<boolean> {
  switch (url.pathname) {
    case '/search': {
      const query = url.searchParams.get('q') ?? '';
      const safe = query.replace(/[<>&"]/g, '');
      html(
        response,
        `<!doctype html><title>Results</title><ul id="results"><li>Result for ${safe}</li></ul>`,
      );
      return true;
    }
    case '/csp.html':
      html(
        response,
        '<!doctype html><title>Strict</title><h1 id="heading">Strict page</h1><script>window.__pageSecret = "s3cret";</script>',
        { 'content-security-policy': "script-src 'self'" },
      );
      return true;
    case '/echo':
      html(response, `<!doctype html><title>Echo</title><p>${url.search}</p>`);
      return true;
    case '/ad-page.html':
      html(
        response,
        `<!doctype html><title>With ads</title><p>Article text.</p><img src="http://${AD_HOST}:${port}/ad-pixel.gif" alt="">`,
      );
      return true;
    case '/ad-pixel.gif':
      response.writeHead(200, { 'content-type': 'image/gif' });
      response.end(Buffer.from('R0lGODlhAQABAAAAACw=', 'base64'));
      return true;
    case '/forbidden':
      html(response, '<!doctype html><title>Forbidden</title><p>Bots are not welcome.</p>', {}, 403);
      return true;
    default:
      return false;
  }
}
