import type { LiveSession } from '../browser-sessions';

/** The one page a relay client sees: the session's tab, described as Chromium describes targets. */
export interface PageTarget {
  targetId: string;
  url: string;
  title: string;
  userAgent: string;
}

/**
 * Every relayed target belongs to this context id. Playwright drops targets without one and puts
 * those of an unknown context into its default context, which is what `contexts()[0]` returns.
 */
export const RELAY_BROWSER_CONTEXT_ID = 'TABHIVESESSIONCONTEXT';

/** The browser itself as Target.getTargetInfo without a target id answers. */
export const BROWSER_TARGET_INFO = {
  targetId: 'TABHIVEBROWSER',
  type: 'browser',
  title: '',
  url: '',
  attached: true,
  canAccessOpener: false,
};

const STEP_TIMEOUT_MS = 15_000;

/**
 * Reads the tab's main frame (its id is the tab's target id in Chromium) and the browser's user
 * agent, through the same page-scoped commands a client would send.
 */
export async function describePageTarget(session: LiveSession): Promise<PageTarget> {
  const tree = (await session.command(
    { kind: 'cdp', method: 'Page.getFrameTree', params: {} },
    STEP_TIMEOUT_MS,
  )) as { frameTree?: { frame?: { id?: unknown; url?: unknown } } };
  const frame = tree.frameTree?.frame;
  if (typeof frame?.id !== 'string') throw new Error('the tab did not describe its main frame');
  const evaluated = (await session
    .command(
      {
        kind: 'cdp',
        method: 'Runtime.evaluate',
        params: { expression: '[navigator.userAgent, document.title]', returnByValue: true },
      },
      STEP_TIMEOUT_MS,
    )
    .catch(() => undefined)) as { result?: { value?: unknown } } | undefined;
  const value = evaluated?.result?.value;
  const [userAgent, title] = Array.isArray(value) ? value : [];
  return {
    targetId: frame.id,
    url: typeof frame.url === 'string' ? frame.url : '',
    title: typeof title === 'string' ? title : '',
    userAgent: typeof userAgent === 'string' ? userAgent : 'Mozilla/5.0 Chrome/0.0.0.0',
  };
}

/** The page as Target.* commands and events describe it. */
export function pageTargetInfo(target: PageTarget, attached: boolean) {
  return {
    targetId: target.targetId,
    type: 'page',
    title: target.title,
    url: target.url,
    attached,
    canAccessOpener: false,
    browserContextId: RELAY_BROWSER_CONTEXT_ID,
  };
}

/** Browser.getVersion's answer, from the tab's user agent (`…HeadlessChrome/156.0.1.2 …`). */
export function browserVersion(userAgent: string) {
  const product = /\b((?:Headless)?Chrome)\/([\d.]+)/.exec(userAgent);
  return {
    protocolVersion: '1.3',
    product: product === null ? 'Chrome/0.0.0.0' : `${product[1]}/${product[2]}`,
    revision: '',
    userAgent,
    jsVersion: '',
  };
}
