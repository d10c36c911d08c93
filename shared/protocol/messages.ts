import { z } from 'zod';
import { Action, MAX_ACTIONS } from '../api/v2/actions';
import { BrandingProfile } from '../branding/branding-profile';
import { NetworkPolicy } from '../url/network-policy';
import { BrowserProfileState, TaskProfile } from './browser-profile-state';
import { ReplaySessionEvent } from './session-replay';

/**
 * The browser hub protocol: JSON text frames on one WebSocket between the server and each
 * browser running the Tabhive extension. Both directions are discriminated unions on `type`,
 * parsed on arrival by both ends. Bump PROTOCOL_VERSION on any incompatible change; the server
 * refuses a `hello` that speaks another version.
 */
export const PROTOCOL_VERSION = 5;

/** Path of the hub's WebSocket endpoint on the API port. */
export const HUB_PATH = '/browser-hub';

/** Close codes the server uses, in the 4000–4999 range that RFC 6455 leaves to applications. */
export const HubCloseCode = {
  /** The first message was not a valid `hello`, or it came too late. */
  BAD_HELLO: 4400,
  /** The token in `hello` is unknown or used up. Reconnecting with it will not help. */
  UNAUTHORIZED: 4401,
  /** The donated browser's pairing was revoked by its team; it must be paired again. */
  REVOKED: 4403,
  /** The browser speaks another protocol version. */
  VERSION_MISMATCH: 4426,
  /** No message (heartbeat or other) arrived within the liveness window. */
  SILENT: 4408,
  /** The server is shutting down. */
  SHUTDOWN: 4503,
  /** Too many sockets are waiting for their hello to be checked; reconnecting later will do. */
  BUSY: 4429,
  /**
   * The browser is connected on another socket that still answers: a second hello for it never
   * replaces the first. Reconnecting later will do once the other socket is gone.
   */
  ALREADY_CONNECTED: 4409,
} as const;

/** Page-task error codes a browser may report; the server maps them to API errors. */
export const TaskErrorCode = z.enum([
  'SCRAPE_TIMEOUT',
  'SCRAPE_SITE_ERROR',
  'SCRAPE_DNS_RESOLUTION_ERROR',
  'SCRAPE_SSL_ERROR',
  'SCRAPE_ACTION_ERROR',
  /** The tab was sent to, or connected to, an address the task's network policy refuses. */
  'URL_BLOCKED',
  'TASK_CANCELLED',
  'BROWSER_ERROR',
  /** A donated browser refused a task its owner did not allow (domain, team or executeJavascript). */
  'TASK_REFUSED',
]);
export type TaskErrorCode = z.infer<typeof TaskErrorCode>;

/**
 * Classes of browsers: `basic` browsers reach the web directly; `stealth` ones through an upstream
 * proxy (or from a donor's own network). The scheduler only hands a task to a browser of its class.
 */
export const BrowserClass = z.enum(['basic', 'stealth']);
export type BrowserClass = z.infer<typeof BrowserClass>;

/**
 * Largest frame either side accepts. Beyond it `ws` closes the whole connection (1009), which
 * would take the browser's other tasks down with one oversized result; so a browser checks its
 * results against this before sending and reports a task error instead.
 */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/**
 * Binary outputs (screenshots, PDFs) travel base64-encoded inside the result frame (at most
 * MAX_MESSAGE_BYTES). A task stops producing them beyond this many characters, leaving room for
 * the HTML that travels in the same frame.
 */
export const MAX_ARTIFACT_CHARS = 40 * 1024 * 1024;

/**
 * A PDF document's bytes travel base64-encoded in its capture, up to this many characters (about
 * 30 MiB of PDF); beyond it the task fails rather than overrun the frame cap.
 */
export const MAX_PDF_BASE64_CHARS = MAX_ARTIFACT_CHARS;

/**
 * What the server asks a browser to do with one page. Absent settings take the v2 API's defaults
 * (ads blocked, certificate errors ignored, no emulation), so a default scrape is just a URL.
 */
export const PageTaskSpec = z.object({
  /** `about:blank` only for a session (`session` set) that starts on an empty tab. */
  url: z.union([z.url({ protocol: /^https?$/ }), z.literal('about:blank')]),
  /** Extra wait after the page has loaded, in ms (the caller's `waitFor`). */
  waitForMs: z.number().int().min(0).default(0),
  /**
   * A donated browser's wait for its person to pass a challenge page (CHALLENGE_WAIT_MS), within
   * the task's own deadline; absent or 0: no one is asked (docs/donated-browsers.md). A launched
   * browser waits as long for an operator in the live view, after a `challenge` session event.
   */
  challengeWaitMs: z.number().int().min(0).max(600_000).optional(),
  /** Run in order after load; one more than the API allows, for the screenshot format's own shot. */
  actions: z
    .array(Action)
    .max(MAX_ACTIONS + 1)
    .optional(),
  /** Request headers for every request of the task's tab (Cookie included). */
  headers: z.record(z.string(), z.string()).optional(),
  /** Phone viewport, touch and a mobile user agent. */
  mobile: z.boolean().optional(),
  /** Country (ISO 3166-1 alpha-2 or `US-generic`) and preferred languages to emulate. */
  location: z.object({ country: z.string(), languages: z.array(z.string()).optional() }).optional(),
  /** Block requests to known ad and tracker domains in the task's tab; true when absent. */
  blockAds: z.boolean().optional(),
  /**
   * Skip images, video, audio and web fonts in the task's tab: nothing the caller asked for needs
   * them (docs/browser-control.md#media). Absent or false: the page loads as a person's would.
   */
  skipMedia: z.boolean().optional(),
  /** Accept invalid TLS certificates in the task's tab; true when absent. */
  skipTlsVerification: z.boolean().optional(),
  /** Measure the page's colours, fonts and components for the branding format. */
  branding: z.boolean().optional(),
  /** Where the tab may connect; absent means the strict default (no private networks). */
  networkPolicy: NetworkPolicy.optional(),
  /**
   * A browser profile's cookies and localStorage, loaded before the page (launched browsers only:
   * a donated browser refuses the task). The server sends such a task alone to a freshly wiped
   * browser, which is wiped again before anything else runs there (task-scheduler.ts `isolated`).
   */
  profile: TaskProfile.optional(),
  /**
   * A browser session (`POST /v2/browser`, a scrape's `interact`): the tab stays open after the
   * page has loaded and takes `session-command`s until an `end` command or the task's time runs
   * out; then the task's `result` carries the page as it is at that moment (and the profile's
   * state when the profile reads back). See SessionCommand.
   */
  session: z
    .object({
      /** Record the tab with rrweb for the session's replay (extension/sessions/replay-recording.ts). */
      record: z.boolean().optional(),
    })
    .strict()
    .optional(),
});
export type PageTaskSpec = z.infer<typeof PageTaskSpec>;

/** What the actions of a task produced, in order per kind (docs/wire-contract.md §3.2). */
export const ActionOutputs = z.object({
  /** `data:image/png;base64,…` or `data:image/jpeg;base64,…` */
  screenshots: z.array(z.string()),
  scrapes: z.array(z.object({ url: z.string(), html: z.string() })),
  javascriptReturns: z.array(z.object({ type: z.string(), value: z.unknown() })),
  /** `data:application/pdf;base64,…` */
  pdfs: z.array(z.string()),
});
export type ActionOutputs = z.infer<typeof ActionOutputs>;

/** What a browser saw of one page. */
export const PageCapture = z.object({
  /** URL the tab ended on, after redirects. */
  url: z.string(),
  /** HTTP status of the main document (0 when the browser got no HTTP response). */
  statusCode: z.number().int(),
  contentType: z.string().optional(),
  /**
   * The main document's response headers that tell an anti-bot system or rate limiter answered
   * (shared/block-pages/block-signal-headers.ts), lower-cased; absent when not known.
   */
  responseHeaders: z.record(z.string(), z.string().max(1024)).optional(),
  /**
   * The page as the browser holds it after scripts ran (doctype + document element), or, for a
   * document that is not HTML (JSON, plain text), the response body as the server sent it.
   */
  rawHtml: z.string(),
  /** The rendered DOM with elements that are not displayed (display:none, hidden) left out. */
  renderedHtml: z.string(),
  /** Page-level error text reported by the browser (net error of the navigation, if any). */
  error: z.string().optional(),
  /** Present when the task had actions. */
  actions: ActionOutputs.optional(),
  /** A PDF document's response body, base64 (contentType says PDF; rawHtml is then empty). */
  pdfBase64: z.string().max(MAX_PDF_BASE64_CHARS).optional(),
  /** Present when the spec asked for branding and the document was a page. */
  branding: BrandingProfile.optional(),
  /**
   * The class of browser that made it, recorded by the server from where the scheduler ran the
   * task (browsers need not send it); kept with cached captures for `metadata.proxyUsed`.
   */
  browserClass: BrowserClass.optional(),
  /**
   * Set by the server when a team's donated browser made it (browsers' own claims are overwritten):
   * such a capture may carry the donor's login and is cached for that team only.
   */
  donated: z.boolean().optional(),
  /**
   * Set by the server when a team's own browser node made it (browsers' own claims are
   * overwritten): the team runs that browser, so the capture is cached for that team only.
   */
  teamNode: z.boolean().optional(),
  /**
   * A launched browser's report that the task ran in state nothing earlier had shaped for its
   * page: no cookies or storage of the page's sites from the team's earlier work, no session,
   * profile, actions or caller headers since the last wipe (extension/browser-state/state-witness.ts).
   * Absent means unknown; only a pool browser's `true` lets the capture be shared with every team.
   */
  stateClean: z.boolean().optional(),
  /**
   * The browser profile's cookies and localStorage after the page, when the spec's profile asked
   * for them back (`readBack`); the server saves them and strips them from the capture.
   */
  profileState: BrowserProfileState.optional(),
  /**
   * Where the task's time went in the browser, in milliseconds (the server's stage metrics):
   * `navigate` from the task's start to the document's commit, `settle` from the commit until
   * the page was still (load, settling, the script's injection), `capture` the page's
   * serialisation; `finishedAt` the browser's clock when the result left, from which the
   * server reads the transfer. Absent from captures the debugger made.
   */
  timings: z
    .object({
      navigateMs: z.number().nonnegative(),
      settleMs: z.number().nonnegative(),
      captureMs: z.number().nonnegative(),
      finishedAt: z.number().nonnegative(),
    })
    .optional(),
});
export type PageCapture = z.infer<typeof PageCapture>;

// ---- browser sessions ----

/** Largest piece of code a session's `evaluate` takes (1 MiB of characters). */
export const MAX_SESSION_CODE_CHARS = 1024 * 1024;

const Modifiers = z.number().int().min(0).max(15).optional();

/**
 * A person's input from the interactive live view, in the tab's CSS pixels, dispatched through
 * the Chrome DevTools Protocol's Input domain (so pages see trusted events).
 */
export const SessionInput = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('mouse'),
    type: z.enum(['mousePressed', 'mouseReleased', 'mouseMoved', 'mouseWheel']),
    x: z.number().finite(),
    y: z.number().finite(),
    button: z.enum(['none', 'left', 'middle', 'right']).default('none'),
    clickCount: z.number().int().min(0).max(3).default(0),
    deltaX: z.number().finite().optional(),
    deltaY: z.number().finite().optional(),
    modifiers: Modifiers,
  }),
  z.object({
    kind: z.literal('key'),
    type: z.enum(['keyDown', 'keyUp', 'rawKeyDown', 'char']),
    key: z.string().max(32).optional(),
    code: z.string().max(32).optional(),
    text: z.string().max(32).optional(),
    windowsVirtualKeyCode: z.number().int().min(0).max(255).optional(),
    modifiers: Modifiers,
  }),
  /** Text pasted or typed through an input method, inserted at the focus. */
  z.object({ kind: z.literal('text'), text: z.string().max(10_000) }),
]);
export type SessionInput = z.infer<typeof SessionInput>;

/**
 * What the server asks of a running session's tab. Each gets exactly one `session-reply` with the
 * same `commandId`; its `result` is typed per kind (see SessionResult).
 */
export const SessionCommand = z.discriminatedUnion('kind', [
  /** Runs JavaScript in the page's isolated world; the value of its last expression (awaited) comes back. */
  z.object({
    kind: z.literal('evaluate'),
    code: z.string().max(MAX_SESSION_CODE_CHARS),
    timeoutMs: z.number().int().positive(),
  }),
  /** Runs Firecrawl actions in order, as a scrape's actions run. */
  z.object({
    kind: z.literal('actions'),
    actions: z.array(Action).max(MAX_ACTIONS),
    timeoutMs: z.number().int().positive(),
  }),
  /** Sends the tab to another address (the task's network policy applies). */
  z.object({
    kind: z.literal('navigate'),
    url: z.url({ protocol: /^https?$/ }),
    timeoutMs: z.number().int().positive(),
  }),
  /** The page as it is now: url, title and HTML (what a prompt's model reads). */
  z.object({ kind: z.literal('snapshot') }),
  /** Starts or stops the tab's screencast: frames then arrive as `session-event`s of kind `frame`. */
  z.object({
    kind: z.literal('screencast'),
    enabled: z.boolean(),
    quality: z.number().int().min(1).max(100).default(60),
    maxWidth: z.number().int().min(100).max(4000).default(1280),
    maxHeight: z.number().int().min(100).max(4000).default(800),
  }),
  /** The screencast's viewer saw a frame; Chromium sends the next only after this. */
  z.object({ kind: z.literal('frame-ack'), frameSessionId: z.number().int() }),
  z.object({ kind: z.literal('input'), input: SessionInput }),
  /**
   * One Chrome DevTools Protocol command for the session's tab (the cdpUrl relay). The browser
   * checks it against its allowlist of page-scoped domains and refuses the rest.
   */
  z.object({
    kind: z.literal('cdp'),
    method: z.string().min(1).max(100),
    params: z.record(z.string(), z.unknown()).optional(),
  }),
  /** Subscribes (or not) to the tab's CDP events, which then arrive as `session-event`s of kind `cdp`. */
  z.object({ kind: z.literal('cdp-events'), enabled: z.boolean() }),
]);
export type SessionCommand = z.infer<typeof SessionCommand>;

/** What each kind of command answers, parsed by the server. */
export const SessionResult = {
  /** `logs`: what the code wrote to the console, in order (`console.error` and `warn` marked `stderr`). */
  evaluate: z.object({
    type: z.string(),
    value: z.unknown(),
    logs: z
      .array(z.object({ stream: z.enum(['stdout', 'stderr']), text: z.string() }))
      .max(10_000)
      .optional(),
  }),
  actions: ActionOutputs,
  navigate: z.object({ url: z.string(), statusCode: z.number().int() }),
  snapshot: z.object({ url: z.string(), title: z.string(), html: z.string() }),
  screencast: z.object({}),
  'frame-ack': z.object({}),
  input: z.object({}),
  cdp: z.unknown(),
  'cdp-events': z.object({}),
} satisfies Record<SessionCommand['kind'], z.ZodType>;

/** Something a session's tab produced on its own: a screencast frame, a CDP event, a navigation. */
export const SessionEvent = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('frame'),
    /** JPEG, base64. */
    data: z.string().max(8 * 1024 * 1024),
    frameSessionId: z.number().int(),
    /** The page's size in CSS pixels when the frame was taken (to map clicks back). */
    deviceWidth: z.number(),
    deviceHeight: z.number(),
    pageScaleFactor: z.number().optional(),
    offsetTop: z.number().optional(),
  }),
  z.object({ kind: z.literal('cdp'), method: z.string(), params: z.unknown() }),
  z.object({ kind: z.literal('navigated'), url: z.string(), title: z.string().optional() }),
  /**
   * A launched browser's page task met a challenge page and waits up to `waitMs` for an operator to
   * pass it in the tab, which takes the live view's commands meanwhile (the page task is not a
   * session otherwise): the server raises `page.challenge` (docs/browser-control.md).
   */
  z.object({
    kind: z.literal('challenge'),
    url: z.string().max(8192),
    vendor: z.string().max(100),
    waitMs: z.number().int().min(0),
  }),
  /** A batch of rrweb events of one page (shared/protocol/session-replay.ts). */
  ReplaySessionEvent,
]);
export type SessionEvent = z.infer<typeof SessionEvent>;

// ---- browser → server ----

/**
 * What the owner of a donated (paired) browser allows: the team's tasks only on these domains
 * (`example.com` also covers its subdomains, see shared/donation/host-allowed.ts), at most
 * `maxTabs` at once, `executeJavascript` only when `allowJavascript`; none at all unless enabled.
 */
export const DonationTerms = z.object({
  enabled: z.boolean(),
  allowedDomains: z.array(z.string().min(1).max(253)).max(500),
  maxTabs: z.number().int().min(1).max(16),
  allowJavascript: z.boolean(),
});
export type DonationTerms = z.infer<typeof DonationTerms>;

export const HelloMessage = z.object({
  type: z.literal('hello'),
  protocolVersion: z.number().int(),
  /**
   * One-time launch token, or the session token the last `welcome` handed out (also one-time: a
   * token presented twice revokes the browser), or a paired browser's device token or a node token.
   */
  token: z.string().min(1),
  extensionVersion: z.string(),
  userAgent: z.string(),
  /** Tasks this browser was running when its worker or connection died; the server retries or fails them. */
  lostTaskIds: z.array(z.string()).default([]),
  browserClass: BrowserClass.default('basic'),
  /** Sent by paired browsers (their token is a device token); launched browsers leave it out. */
  donation: DonationTerms.optional(),
});

/**
 * Extension API calls the browser's worker has made since it started, as the result leaves: the
 * hub turns the difference between results into calls per task (extension/tasks/count-api-calls.ts).
 */
const ApiCallCount = z.number().int().min(0).optional();

export const ResultMessage = z.discriminatedUnion('ok', [
  z.object({
    type: z.literal('result'),
    taskId: z.string(),
    ok: z.literal(true),
    capture: PageCapture,
    apiCalls: ApiCallCount,
  }),
  z.object({
    type: z.literal('result'),
    taskId: z.string(),
    ok: z.literal(false),
    error: z.object({ code: TaskErrorCode, message: z.string() }),
    apiCalls: ApiCallCount,
  }),
]);

/**
 * What a browser holds for its tasks right now. Sent with heartbeats and after every task, so that
 * leaks (windows, debugger sessions, network rules left behind) are visible from the server.
 */
export const BrowserStatus = z.object({
  runningTasks: z.number().int(),
  /** Windows open, pooled tabs' windows not counted. */
  windows: z.number().int(),
  /** Tabs with a debugger attached, pooled tabs not counted. */
  debuggerSessions: z.number().int(),
  /** DNR session rules tasks hold (not the standing ad block, not idle pooled tabs' address rules). */
  sessionRules: z.number().int(),
  /** Warm task tabs waiting idle for the next task (launched browsers; 0 in donated ones). */
  pooledTabs: z.number().int().default(0),
});
export type BrowserStatus = z.infer<typeof BrowserStatus>;

export const HeartbeatMessage = z.object({
  type: z.literal('heartbeat'),
  sentAt: z.number(),
  status: BrowserStatus.optional(),
});

/** The answer to one `session-command`. */
export const SessionReplyMessage = z.discriminatedUnion('ok', [
  z.object({
    type: z.literal('session-reply'),
    taskId: z.string(),
    commandId: z.string(),
    ok: z.literal(true),
    result: z.unknown(),
  }),
  z.object({
    type: z.literal('session-reply'),
    taskId: z.string(),
    commandId: z.string(),
    ok: z.literal(false),
    error: z.object({ code: TaskErrorCode, message: z.string() }),
  }),
]);
export type SessionReplyMessage = z.infer<typeof SessionReplyMessage>;

export const SessionEventMessage = z.object({
  type: z.literal('session-event'),
  taskId: z.string(),
  event: SessionEvent,
});
export type SessionEventMessage = z.infer<typeof SessionEventMessage>;

/**
 * The browser takes no new tasks (its browser node is shutting down): it finishes what it holds,
 * and whatever is still running when its process ends goes back to the queue for another browser.
 */
export const DrainMessage = z.object({ type: z.literal('drain') });
export type DrainMessage = z.infer<typeof DrainMessage>;

export const BrowserMessage = z.union([
  HelloMessage,
  ResultMessage,
  HeartbeatMessage,
  SessionReplyMessage,
  SessionEventMessage,
  DrainMessage,
]);
export type BrowserMessage = z.infer<typeof BrowserMessage>;
export type HelloMessage = z.infer<typeof HelloMessage>;
export type ResultMessage = z.infer<typeof ResultMessage>;

// ---- server → browser ----

export const WelcomeMessage = z.object({
  type: z.literal('welcome'),
  protocolVersion: z.number().int(),
  browserId: z.string(),
  /**
   * Token for the next reconnect after the worker or the socket restarts. The token this hello
   * presented is spent; a launched browser keeps only this one (docs/security.md).
   */
  sessionToken: z.string(),
  heartbeatIntervalMs: z.number().int().positive(),
  /** Tasks the server will run at once on this browser. */
  maxConcurrentTasks: z.number().int().positive(),
  /** The team a donated browser serves; absent for launched browsers. */
  team: z.object({ id: z.string(), name: z.string() }).optional(),
});

export const TaskMessage = z.object({
  type: z.literal('task'),
  taskId: z.string(),
  /**
   * Time the browser has for the task, counted from receipt. A duration rather than a wall-clock
   * deadline, because a donated browser's clock need not agree with the server's.
   */
  timeoutMs: z.number().int().positive(),
  spec: PageTaskSpec,
  /**
   * Launched browsers: whose cookies, storage and caches the task runs in (a team's). The server
   * never sends tasks of two keys to one browser at once, and the browser wipes its state before a
   * task whose key differs from the last one's, so no team sees another's logins. Donated
   * browsers, which serve one team and are a person's own, get none and are never wiped.
   */
  stateKey: z.string().min(1).max(200).optional(),
});

export const CancelMessage = z.object({ type: z.literal('cancel'), taskId: z.string(), reason: z.string() });

/**
 * A command for a running session task. `end` is not a command: the server ends a session with a
 * `session-end`, after which the task's `result` follows.
 */
export const SessionCommandMessage = z.object({
  type: z.literal('session-command'),
  taskId: z.string(),
  commandId: z.string().min(1).max(100),
  command: SessionCommand,
});
export type SessionCommandMessage = z.infer<typeof SessionCommandMessage>;

/** Ends a session task: the tab's page is captured (and the profile read back) and sent as the task's `result`. */
export const SessionEndMessage = z.object({ type: z.literal('session-end'), taskId: z.string() });
export type SessionEndMessage = z.infer<typeof SessionEndMessage>;

export const ServerMessage = z.discriminatedUnion('type', [
  WelcomeMessage,
  TaskMessage,
  CancelMessage,
  HeartbeatMessage,
  SessionCommandMessage,
  SessionEndMessage,
]);
export type ServerMessage = z.infer<typeof ServerMessage>;
export type WelcomeMessage = z.infer<typeof WelcomeMessage>;
export type TaskMessage = z.infer<typeof TaskMessage>;
export type CancelMessage = z.infer<typeof CancelMessage>;

export type DecodeResult<T> = { ok: true; message: T } | { ok: false; error: string };

function decodeWith<T>(schema: z.ZodType<T>, data: unknown): DecodeResult<T> {
  let json: unknown;
  try {
    json = JSON.parse(typeof data === 'string' ? data : String(data));
  } catch {
    return { ok: false, error: 'message is not JSON' };
  }
  const parsed = schema.safeParse(json);
  return parsed.success
    ? { ok: true, message: parsed.data }
    : { ok: false, error: z.prettifyError(parsed.error) };
}

/** Decodes a frame from a browser. Never throws: socket handlers must not die on bad input. */
export function decodeBrowserMessage(data: unknown): DecodeResult<BrowserMessage> {
  return decodeWith(BrowserMessage, data);
}

/** Decodes a frame from the server. Never throws. */
export function decodeServerMessage(data: unknown): DecodeResult<ServerMessage> {
  return decodeWith(ServerMessage, data);
}

/** Exhaustiveness guard for `switch (msg.type)`: a new message type breaks the build where it is not handled. */
export function assertNever(value: never): never {
  throw new Error(`unhandled message: ${JSON.stringify(value)}`);
}
