/**
 * Recognises the pages anti-bot systems and rate limiters serve instead of a site's page: a
 * challenge (the visitor may pass it: an interstitial, a CAPTCHA), a hard block, or a rate limit.
 * Used by the server, which never returns such a page as a success (docs/browser-control.md,
 * "Blocked pages and challenges"), and by the extension, which asks a donated browser's person to
 * solve a challenge (docs/donated-browsers.md).
 *
 * Every rule needs a mark the vendor's own page carries (a header it sets, its script's address,
 * its page's title), not words a site could use about it: a page that mentions Cloudflare, loads
 * a vendor's detection script or has a CAPTCHA on its contact form is not blocked. The marks are
 * those of the vendors' public documentation and of how their pages are commonly described; the
 * fixtures in test/fixtures/block-pages/ say where each came from.
 */

export type BlockKind = 'challenge' | 'block' | 'rate-limit';

export interface BlockPage {
  /** Who served it, for the caller's error: "Cloudflare", "DataDome", …, or "the site". */
  vendor: string;
  kind: BlockKind;
  /** The mark that decided, for logs and tests. */
  evidence: string;
}

export interface BlockEvidence {
  /** The document's HTTP status; 0 when unknown (a page read in place). */
  statusCode: number;
  /** Response headers with lower-case names (block-signal-headers.ts); absent when unknown. */
  headers?: Readonly<Record<string, string>> | undefined;
  /** The document's HTML. */
  html: string;
}

/** Block pages are small and say who they are early: a page is read up to this far. */
const SNIFF_CHARS = 65_536;
/** A wall shows little besides its widget; a page with more text than this is a page. */
const WALL_TEXT_CHARS = 800;

const CLOUDFLARE = 'Cloudflare';
const SITE = 'the site';

const titleOf = (html: string) => /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1]?.trim() ?? '';
const headingOf = (html: string) =>
  /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(html)?.[1]?.replace(/<[^>]+>/g, '') ?? '';

/** The words a reader sees: scripts, styles and tags left out. */
const visibleText = (html: string) =>
  html
    .replace(/<(script|style|noscript|template)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&[a-z#0-9]+;/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** A field a person types into: a contact or login form, which a wall does not have. */
const hasTypingFields = (html: string) =>
  /<textarea\b/i.test(html) ||
  /<input\b(?![^>]*\btype\s*=\s*["']?(?:hidden|submit|button|checkbox|radio|image)\b)[^>]*>/i.test(html);

const WALL_WORDS =
  /verify (?:that )?you are (?:a )?human|are you a (?:robot|human)|not a robot|unusual traffic|security check|checking (?:if the site connection is secure|your browser)|complete the (?:captcha|security check)|prove you(?:'|’)?re (?:a )?human|press (?:&amp;|&) hold/i;

interface Page {
  status: number;
  headers: Readonly<Record<string, string>>;
  html: string;
  title: string;
}

type Rule = (page: Page) => BlockPage | undefined;

const found = (vendor: string, kind: BlockKind, evidence: string): BlockPage => ({ vendor, kind, evidence });

/**
 * Cloudflare: the managed challenge or "Just a moment…" interstitial (its `cf-mitigated:
 * challenge` header, the `_cf_chl_opt` settings of its script), the WAF's "Sorry, you have been
 * blocked" (errors 1005–1020) and the rate limit (error 1015). Cloudflare's bot script
 * (/cdn-cgi/challenge-platform/scripts/jsd/…) also runs on ordinary pages: alone, it is no sign.
 */
const cloudflare: Rule = ({ status, headers, html, title }) => {
  if (headers['cf-mitigated']?.toLowerCase() === 'challenge')
    return found(CLOUDFLARE, 'challenge', 'cf-mitigated');
  if (/window\._cf_chl_opt|\b__cf_chl_(?:f_tk|rt_tk|tk)\b/.test(html))
    return found(CLOUDFLARE, 'challenge', '_cf_chl_opt');
  if (/^just a moment(?:\.\.\.|…)$/i.test(title) && /\/cdn-cgi\/challenge-platform\/h\//i.test(html))
    return found(CLOUDFLARE, 'challenge', 'interstitial');
  const fromCloudflare =
    headers['server']?.toLowerCase() === 'cloudflare' ||
    headers['cf-ray'] !== undefined ||
    /cf-error-details/i.test(html);
  if (!fromCloudflare || status < 400) return undefined;
  if (/error\s*(?:code:?\s*)?1015\b|you are being rate limited/i.test(html))
    return found(CLOUDFLARE, 'rate-limit', 'error 1015');
  if (
    /attention required! \| cloudflare/i.test(title) ||
    /sorry, you have been blocked|error\s*(?:code:?\s*)?10(?:0[5-9]|1[0-2]|20)\b/i.test(html)
  )
    return found(CLOUDFLARE, 'block', 'cloudflare block page');
  if (status === 429) return found(CLOUDFLARE, 'rate-limit', '429');
  return undefined;
};

/**
 * DataDome: its CAPTCHA and interstitial come from captcha-delivery.com (the page's `dd` object
 * points there), with an `x-datadome` header. Its tag (js.datadome.co) on an ordinary page is not.
 */
const dataDome: Rule = ({ status, headers, html }) => {
  if (/(?:geo|ct)\.captcha-delivery\.com/i.test(html))
    return found('DataDome', 'challenge', 'captcha-delivery.com');
  const fromDataDome = headers['x-datadome'] !== undefined || /datadome/i.test(headers['server'] ?? '');
  if (fromDataDome && (status === 403 || status === 401)) return found('DataDome', 'block', 'x-datadome');
  return undefined;
};

/**
 * HUMAN (PerimeterX): the "Press & Hold" challenge (a `px-captcha` element, its captcha script
 * from px-cdn / px-captcha) under the title "Access to this page has been denied". Its sensor
 * script (client.perimeterx.net, `_pxAppId`) on an ordinary page is not.
 */
const perimeterX: Rule = ({ html, title }) => {
  if (/id\s*=\s*["']px-captcha["']|captcha\.px-cdn\.net|\/captcha\/captcha\.js\?a=c/i.test(html))
    return found('HUMAN (PerimeterX)', 'challenge', 'px-captcha');
  if (/^access to this page has been denied\.?$/i.test(title) && /_pxAppId|perimeterx|px-cdn/i.test(html))
    return found('HUMAN (PerimeterX)', 'block', 'denied page');
  return undefined;
};

/**
 * Akamai: the edge's "Access Denied … Reference #18.…" page (errors.edgesuite.net), and Bot
 * Manager's challenge (`sec-if-cpt` container, /_sec/cp_challenge/).
 */
const akamai: Rule = ({ status, headers, html, title }) => {
  if (/sec-if-cpt-container|\/_sec\/cp_challenge\//i.test(html))
    return found('Akamai', 'challenge', 'sec-cpt');
  if (
    status >= 400 &&
    /^access denied$/i.test(title) &&
    /reference\s*#\s*\d+\.[0-9a-f.]+|errors\.edgesuite\.net/i.test(html)
  )
    return found('Akamai', 'block', 'reference #');
  if (status === 403 && /akamaighost/i.test(headers['server'] ?? ''))
    return found('Akamai', 'block', 'AkamaiGHost');
  return undefined;
};

/**
 * Imperva (Incapsula): the "Request unsuccessful. Incapsula incident ID" block, and the challenge
 * page that is nothing but an iframe of /_Incapsula_Resource.
 */
const imperva: Rule = ({ html }) => {
  if (/incapsula incident id|request unsuccessful\. incapsula/i.test(html))
    return found('Imperva', 'block', 'incident id');
  if (/_Incapsula_Resource/i.test(html) && visibleText(html).length < WALL_TEXT_CHARS)
    return found('Imperva', 'challenge', '_Incapsula_Resource');
  return undefined;
};

/**
 * A CAPTCHA wall: Google's "unusual traffic" page, or a short page whose only business is a
 * reCAPTCHA, hCaptcha or Turnstile widget under words asking to prove a human is there. A widget
 * on a page with text of its own or fields to type in (a contact form, a login) is not a wall.
 */
const captchaWall: Rule = ({ html }) => {
  if (/our systems have detected unusual traffic from your computer network/i.test(html))
    return found('Google reCAPTCHA', 'challenge', 'unusual traffic');
  const widget = /class\s*=\s*["'][^"']*\bh-captcha\b|hcaptcha\.com\/1\/api\.js/i.test(html)
    ? 'hCaptcha'
    : /class\s*=\s*["'][^"']*\bg-recaptcha\b|google\.com\/recaptcha\/|recaptcha\.net\/recaptcha\//i.test(html)
      ? 'Google reCAPTCHA'
      : /class\s*=\s*["'][^"']*\bcf-turnstile\b|challenges\.cloudflare\.com\/turnstile\//i.test(html)
        ? 'Cloudflare Turnstile'
        : undefined;
  if (widget === undefined || hasTypingFields(html)) return undefined;
  const text = visibleText(html);
  if (text.length >= WALL_TEXT_CHARS || !WALL_WORDS.test(text)) return undefined;
  return found(widget, 'challenge', 'captcha wall');
};

/** A refusal with no vendor's mark: a 429, or a 401/403 page titled as one ("Access denied"). */
const plainRefusal: Rule = ({ status, html, title }) => {
  if (status === 429) return found(SITE, 'rate-limit', '429');
  if (status !== 401 && status !== 403) return undefined;
  const named = `${title} ${headingOf(html)}`;
  if (
    /\baccess (?:is )?denied\b|\byou have been blocked\b|\brequest blocked\b|\btoo many requests\b/i.test(
      named,
    )
  )
    return found(SITE, /too many requests/i.test(named) ? 'rate-limit' : 'block', 'access denied');
  return undefined;
};

/** Vendors first (they name themselves), then walls, then plain refusals. */
const RULES: readonly Rule[] = [cloudflare, dataDome, perimeterX, akamai, imperva, captchaWall, plainRefusal];

/** What blocked the page, or undefined when it is the site's own page. */
export function recognizeBlockPage({ statusCode, headers = {}, html }: BlockEvidence): BlockPage | undefined {
  // Numeric character references spelled out, as edge pages write their reference numbers (&#46;).
  const head = html
    .slice(0, SNIFF_CHARS)
    .replace(/&#(\d{1,5});/g, (_, code: string) => String.fromCharCode(Number(code)));
  const page: Page = { status: statusCode, headers, html: head, title: titleOf(head) };
  for (const rule of RULES) {
    const block = rule(page);
    if (block !== undefined) return block;
  }
  return undefined;
}

const withArticle = (words: string) => `${/^[aeiou]/i.test(words) ? 'an' : 'a'} ${words}`;

/** The block in words, for an error message: "a Cloudflare challenge page", "the site's rate limit (429)". */
export function describeBlock({ vendor, kind }: BlockPage): string {
  switch (kind) {
    case 'challenge':
      return withArticle(`${vendor} challenge page`);
    case 'block':
      return vendor === SITE ? 'an access-denied page of the site' : withArticle(`${vendor} block page`);
    case 'rate-limit':
      return vendor === SITE ? "the site's rate limit (429)" : `${vendor}'s rate limit`;
  }
}
