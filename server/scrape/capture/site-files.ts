import type { PageCapture, PageTaskSpec } from '../../../shared/protocol/messages';
import { type DonatedRoutes, type RunOptions, routesToDonated } from '../../browsers/hub';
import type { Egress } from '../../platform/egress';
import type { UrlPolicy } from '../../platform/url-policy';

/** How the server reads a site's own files (robots.txt, sitemaps): the egress's GET. */
export type SiteFileReader = Pick<Egress, 'get'>;

export interface SiteFiles {
  /**
   * The team's reader: a URL only one of the team's donated browsers may take (an intranet site
   * its owner allowed) is read by that browser, never by the server; any other through the
   * server's egress and its URL policy. Each URL is routed on its own, since a sitemap may name
   * files on other hosts.
   */
  forTeam(teamId: string): SiteFileReader;
}

/**
 * A site file through the team's donated browser: a page task of that browser alone, at background
 * priority, that waits for it up to the fetch's timeout. Chromium hands text and XML documents
 * over as the bytes the site sent (rawHtml of a document that is not HTML); a gzipped sitemap is
 * a download there, so it is not read this way.
 */
async function readThroughDonatedBrowser(
  { runTask, networkPolicy }: Pick<SiteFilesDeps, 'runTask' | 'networkPolicy'>,
  teamId: string,
  url: string,
  { timeoutMs, maxBytes }: { timeoutMs: number; maxBytes: number },
) {
  const capture = await runTask(
    { url, waitForMs: 0, networkPolicy },
    { timeoutMs, teamId, donatedOnly: true, priority: 'background' },
  );
  const bytes = Buffer.from(capture.rawHtml, 'utf8').subarray(0, maxBytes);
  return {
    status: capture.statusCode,
    headers: capture.contentType === undefined ? {} : { 'content-type': capture.contentType },
    body: bytes.toString('utf8'),
    bytes,
    url: capture.url,
  };
}

interface SiteFilesDeps {
  egress: Egress;
  /** Without it, every file is read through the egress. */
  donatedRoutes?: DonatedRoutes | undefined;
  runTask(spec: PageTaskSpec, options: RunOptions): Promise<PageCapture>;
  networkPolicy: UrlPolicy['networkPolicy'];
}

export function createSiteFiles(deps: SiteFilesDeps): SiteFiles {
  const { egress, donatedRoutes } = deps;
  return {
    forTeam: (teamId) => ({
      async get(url, options) {
        const route = await donatedRoutes?.routeFor(teamId, url);
        return routesToDonated(route)
          ? readThroughDonatedBrowser(deps, teamId, url, options)
          : egress.get(url, options);
      },
    }),
  };
}
