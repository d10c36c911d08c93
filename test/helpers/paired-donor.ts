import type { Cookie } from 'playwright-core';
import { BROWSERS_PATH } from '../../shared/api/tabhive/browser-pairing';
import type { DonationSettings } from '../../extension/ui/ui-messages';
import { startExtensionBrowser } from './extension-browser';
import { waitUntil, type startTestTabhive } from './start-test-tabhive';

/** What the helper calls inside an extension page: run there by Playwright, only typed here. */
declare const chrome: { runtime: { sendMessage(message: unknown): Promise<unknown> } };

/**
 * A person's Chromium with the extension, its donation terms saved and paired with `tabhive`'s
 * default team through the extension's own messages (as its options page does), and connected
 * to the hub before it is handed back, so the team's first task can go to it.
 */
export async function startPairedDonor({
  tabhive,
  donation,
  cookies = [],
  browserArgs = [],
}: {
  tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
  donation: DonationSettings;
  /** Logins of the person's own, set before pairing. */
  cookies?: Array<Partial<Cookie> & { name: string; value: string; url: string }>;
  /** Chromium switches of the person's browser (a host resolver rule: a name only its network knows). */
  browserArgs?: string[];
}) {
  const donor = await startExtensionBrowser({ args: browserArgs });
  if (cookies.length > 0) await donor.context.addCookies(cookies);
  /** An extension page of the donor's browser, standing in for the options page. */
  const page = await donor.context.newPage();
  await page.goto(`chrome-extension://${donor.extensionId}/launch.html`);
  const ask = <T>(request: object): Promise<T> =>
    page.evaluate((message) => chrome.runtime.sendMessage(message), request) as Promise<T>;
  const connectedBefore = tabhive.tabhive.hub.connectedBrowsers();
  await ask({ type: 'saveDonation', settings: donation });
  const { json: code } = await tabhive.post(`${BROWSERS_PATH}/pairing-codes`, {});
  const paired = await ask<{ ok: boolean }>({ type: 'pair', serverUrl: tabhive.url, code: code.code });
  if (!paired.ok) throw new Error(`pairing failed: ${JSON.stringify(paired)}`);
  await waitUntil(
    () => tabhive.tabhive.hub.connectedBrowsers() > connectedBefore,
    10_000,
    'the donated browser to connect',
  );
  return { donor, page, ask };
}
