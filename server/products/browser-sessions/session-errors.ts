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
  /** Tabhive never runs a caller's program on the server: only JavaScript in the page. */
  languageNotRun: (language: string) =>
    new TabhiveError(
      'invalid-input',
      `Tabhive does not run ${language} code: it never runs a caller's code on the server. Send language "node" with JavaScript, which runs inside the session's page (an isolated world: the page's DOM, not its scripts' variables), or send "actions" (Firecrawl actions) or a "prompt".`,
      { code: 'BAD_REQUEST' },
    ),
  noModel: () =>
    new TabhiveError(
      'invalid-input',
      'A prompt needs a language model, and this Tabhive server has none configured (LLM_BASE_URL). Send "code" (JavaScript run in the page) or "actions" instead.',
      { code: 'BAD_REQUEST' },
    ),
  modelFailed: (reason: string) =>
    new TabhiveError('upstream-failed', `The language model could not plan the prompt: ${reason}`, {
      code: 'LLM_FAILED',
    }),
};
