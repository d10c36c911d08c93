import { TabhiveError } from '../../platform/errors';

/** The browser session routes' own errors; codes are stable once shipped. */
export const sessionErrors = {
  notFound: () =>
    new TabhiveError('not-found', 'Browser session not found.', { code: 'BROWSER_SESSION_NOT_FOUND' }),
  ended: (reason: string) =>
    new TabhiveError('gone', `The browser session has ended: ${reason}`, { code: 'BROWSER_SESSION_ENDED' }),
  tooMany: (max: number) =>
    new TabhiveError(
      'rate-limited',
      `This team already runs ${max} browser sessions, the most it may run at once. Delete one (DELETE /v2/browser/<id>) or let one expire.`,
      { code: 'BROWSER_SESSION_LIMIT', retryAfterSeconds: 5 },
    ),
  noFreeBrowser: () =>
    new TabhiveError(
      'unavailable',
      'No browser tab is free for a session right now (sessions hold a tab for their whole life). Try again shortly, or add browsers (BROWSERS, TABS_PER_BROWSER).',
      { code: 'NO_BROWSER_AVAILABLE', retryAfterSeconds: 5 },
    ),
  /** Every session runs in a browser of its own; these are the server's, all in use. */
  sessionBrowsersFull: (max: number) =>
    new TabhiveError(
      'unavailable',
      `All ${max} session browsers of this server are in use (each browser session runs in a browser of its own). Try again when a session ends, or ask the operator to raise SESSION_BROWSERS.`,
      { code: 'SESSION_BROWSERS_BUSY', retryAfterSeconds: 10 },
    ),
  /** A team holds all the session browsers it may, so that other teams can still open sessions. */
  sessionBrowsersTeamShare: (share: number) =>
    new TabhiveError(
      'rate-limited',
      `This team already holds ${share} of this server's session browsers, the most one team may hold (one is kept for other teams). Delete a session (DELETE /v2/browser/<id>) or let one expire, or ask the operator to raise SESSION_BROWSERS.`,
      { code: 'BROWSER_SESSION_LIMIT', retryAfterSeconds: 10 },
    ),
  /** The session's own browser did not start or connect in time. */
  notAPage: () =>
    new TabhiveError(
      'invalid-input',
      'This result is a parsed upload, not a web page: there is no page to interact with. Scrape a URL and interact with that scrape.',
      { code: 'BAD_REQUEST' },
    ),
  browserDidNotStart: () =>
    new TabhiveError(
      'unavailable',
      'The browser launched for this session did not start in time. Try again shortly; if it keeps failing, see the server log.',
      { code: 'NO_BROWSER_AVAILABLE', retryAfterSeconds: 5 },
    ),
  /**
   * Python code would need Playwright for Python in a sandbox this server cannot build honestly (a
   * Python process has the server's file system, environment and network unless the operating
   * system fences it); node code runs in a V8 isolate with only the session's page.
   */
  pythonNotAvailable: () =>
    new TabhiveError(
      'invalid-input',
      'Python execution is not available on this server: Tabhive runs a caller\'s code only in a sandbox it can hold (a V8 isolate with no file system, environment or network beyond the session\'s page), and it has no such sandbox for Python. Send the same steps as JavaScript with language "node": `page`, `context` and `browser` are Playwright\'s, as in Playwright for Python (await page.goto(url); return await page.title();). Or send "actions" (Firecrawl actions) or a "prompt".',
      { code: 'BAD_REQUEST' },
    ),
  /** A shell on the server is what the sandbox exists to deny; there is no honest equivalent. */
  bashNotAvailable: () =>
    new TabhiveError(
      'invalid-input',
      'Bash execution is not available on this server: a shell would reach the server\'s files, environment and network, and Tabhive runs a caller\'s code only in a sandbox that reaches the session\'s page alone. Send JavaScript with language "node" (Playwright\'s `page`, `context` and `browser`: await page.goto(url); return await page.title();), language "page" (JavaScript run inside the page), "actions" or a "prompt". The SDKs send "bash" when no language is given: pass language "node".',
      { code: 'BAD_REQUEST' },
    ),
  /** The server was composed without a relay its own Playwright can reach. */
  playwrightUnavailable: () =>
    new TabhiveError(
      'unavailable',
      'Playwright code cannot run on this server right now (no CDP relay for its sandbox). Send language "page" to run JavaScript inside the page, or "actions".',
      { code: 'EXECUTE_UNAVAILABLE', retryAfterSeconds: 5 },
    ),
  noModel: () =>
    new TabhiveError(
      'invalid-input',
      'A prompt needs a language model, and this Tabhive server has none configured (LLM_BASE_URL). Send "code" (Playwright JavaScript, or language "page" for JavaScript run in the page) or "actions" instead.',
      { code: 'BAD_REQUEST' },
    ),
  modelFailed: (reason: string) =>
    new TabhiveError('upstream-failed', `The language model could not plan the prompt: ${reason}`, {
      code: 'LLM_FAILED',
    }),
};
