import { z } from 'zod';

/**
 * The browser hub protocol: JSON text frames on one WebSocket between the server and each
 * browser running the Tabhive extension. Both directions are discriminated unions on `type`,
 * parsed on arrival by both ends. Bump PROTOCOL_VERSION on any incompatible change; the server
 * refuses a `hello` that speaks another version.
 */
export const PROTOCOL_VERSION = 1;

/** Path of the hub's WebSocket endpoint on the API port. */
export const HUB_PATH = '/browser-hub';

/** Close codes the server uses, in the 4000–4999 range that RFC 6455 leaves to applications. */
export const HubCloseCode = {
  /** The first message was not a valid `hello`, or it came too late. */
  BAD_HELLO: 4400,
  /** The token in `hello` is unknown, used up, or revoked. Reconnecting with it will not help. */
  UNAUTHORIZED: 4401,
  /** The browser speaks another protocol version. */
  VERSION_MISMATCH: 4426,
  /** No message (heartbeat or other) arrived within the liveness window. */
  SILENT: 4408,
  /** The server is shutting down. */
  SHUTDOWN: 4503,
} as const;

/** Page-task error codes a browser may report; the server maps them to API errors. */
export const TaskErrorCode = z.enum([
  'SCRAPE_TIMEOUT',
  'SCRAPE_SITE_ERROR',
  'SCRAPE_DNS_RESOLUTION_ERROR',
  'SCRAPE_SSL_ERROR',
  'TASK_CANCELLED',
  'BROWSER_ERROR',
]);
export type TaskErrorCode = z.infer<typeof TaskErrorCode>;

/** What the server asks a browser to do with one page. */
export const PageTaskSpec = z.object({
  url: z.url({ protocol: /^https?$/ }),
  /** Extra wait after the page has loaded, in ms (the caller's `waitFor`). */
  waitForMs: z.number().int().min(0).default(0),
});
export type PageTaskSpec = z.infer<typeof PageTaskSpec>;

/** What a browser saw of one page. */
export const PageCapture = z.object({
  /** URL the tab ended on, after redirects. */
  url: z.string(),
  /** HTTP status of the main document (0 when the browser got no HTTP response). */
  statusCode: z.number().int(),
  contentType: z.string().optional(),
  /**
   * The page as the browser holds it after scripts ran (doctype + document element), or, for a
   * document that is not HTML (JSON, plain text), the response body as the server sent it.
   */
  rawHtml: z.string(),
  /** The rendered DOM with elements that are not displayed (display:none, hidden) left out. */
  renderedHtml: z.string(),
  /** Page-level error text reported by the browser (net error of the navigation, if any). */
  error: z.string().optional(),
});
export type PageCapture = z.infer<typeof PageCapture>;

// ---- browser → server ----

export const HelloMessage = z.object({
  type: z.literal('hello'),
  protocolVersion: z.number().int(),
  /** One-time launch token, or the session token a previous `welcome` handed out. */
  token: z.string().min(1),
  extensionVersion: z.string(),
  userAgent: z.string(),
  /** Tasks this browser was running when its worker or connection died; the server retries or fails them. */
  lostTaskIds: z.array(z.string()).default([]),
});

export const ResultMessage = z.discriminatedUnion('ok', [
  z.object({ type: z.literal('result'), taskId: z.string(), ok: z.literal(true), capture: PageCapture }),
  z.object({
    type: z.literal('result'),
    taskId: z.string(),
    ok: z.literal(false),
    error: z.object({ code: TaskErrorCode, message: z.string() }),
  }),
]);

export const HeartbeatMessage = z.object({ type: z.literal('heartbeat'), sentAt: z.number() });

export const BrowserMessage = z.discriminatedUnion('type', [HelloMessage, ResultMessage, HeartbeatMessage]);
export type BrowserMessage = z.infer<typeof BrowserMessage>;
export type HelloMessage = z.infer<typeof HelloMessage>;
export type ResultMessage = z.infer<typeof ResultMessage>;

// ---- server → browser ----

export const WelcomeMessage = z.object({
  type: z.literal('welcome'),
  protocolVersion: z.number().int(),
  browserId: z.string(),
  /** Token for reconnecting after the worker or the socket restarts; the launch token is spent. */
  sessionToken: z.string(),
  heartbeatIntervalMs: z.number().int().positive(),
  /** Tasks the server will run at once on this browser. */
  maxConcurrentTasks: z.number().int().positive(),
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
});

export const CancelMessage = z.object({ type: z.literal('cancel'), taskId: z.string(), reason: z.string() });

export const ServerMessage = z.discriminatedUnion('type', [
  WelcomeMessage,
  TaskMessage,
  CancelMessage,
  HeartbeatMessage,
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
