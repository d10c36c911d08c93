import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  HubCloseCode,
  MAX_MESSAGE_BYTES,
  PROTOCOL_VERSION,
  assertNever,
  decodeBrowserMessage,
  type BrowserClass,
  type BrowserStatus,
  type HelloMessage,
  type PageCapture,
  type PageTaskSpec,
  type ServerMessage,
  type SessionCommandMessage,
  type SessionEndMessage,
  type SessionEventMessage,
  type SessionReplyMessage,
} from '../../../shared/protocol/messages';
import type { Log } from '../../platform/log';
import type { BrowserTokens, TokenCheck } from '../launch-tokens';
import type { DonatedBrowserDirectory } from './donated-browser-directory';
import { isNodeToken, type NodeTokenDirectory } from './node-token-directory';
import { TaskError } from './task-error';
import { createTaskScheduler, type RunOptions, type SchedulerSnapshot } from './task-scheduler';
import { displayUrl } from './display-url';
import { createRecentFailures, type BrowserFailure, type RecentFailures } from './recent-failures';
import { hubOriginAllowed } from './hub-origin';
import { PRE_AUTH_MAX_FRAME_BYTES, raiseFrameLimit } from './frame-limit';
import { socketAnswers } from './socket-answers';

export interface BrowserHub {
  /** Takes over an HTTP upgrade request for the hub path. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  runTask(spec: PageTaskSpec, options: RunOptions): Promise<PageCapture>;
  /**
   * Sends a session task's command or end to the browser running it; false when no browser runs
   * that task (still queued, or settled).
   */
  sendSession(message: SessionCommandMessage | SessionEndMessage): boolean;
  /** Which browser runs a task now (a session's live view says whose browser it is). */
  taskBrowser(
    taskId: string,
  ): { browserId: string; donated: boolean; browserClass: BrowserClass } | undefined;
  /** Gives up a task, queued or running; it fails with TASK_CANCELLED. */
  cancelTask(taskId: string, reason: string): boolean;
  /** Listens to what browsers answer and report for their session tasks; returns the unsubscribe. */
  onSessionMessage(listener: (message: SessionReplyMessage | SessionEventMessage) => void): () => void;
  /** Connected browsers (donated ones included), or the pool browsers of one class. */
  connectedBrowsers(browserClass?: BrowserClass): number;
  /** Free tabs of the shared pool's browsers of a class, less the tasks of that class waiting here. */
  spareSlots(browserClass: BrowserClass): number;
  /** Whether a pool browser (the shared pool's, or the team's own) of the class takes tasks here now. */
  hasPoolBrowser(browserClass: BrowserClass, teamId?: string): boolean;
  /**
   * Tabs of the pool browsers of a class that take tasks (not draining): crawl pages may fill them.
   * `sharedOnly`: not counting team nodes' browsers, which take their team's tasks only.
   */
  poolTabs(browserClass: BrowserClass, options?: { sharedOnly?: boolean }): number;
  /** Whether one of the team's donated browsers is connected and takes tasks for this URL. */
  donatedCovers(teamId: string, url: string): boolean;
  /** The team's connected donated browsers that take tasks for this URL, and whether each is full. */
  donatedBrowsersFor(teamId: string, url: string): Array<{ browserId: string; busy: boolean }>;
  /** Whether the browser with this id has a socket whose hello was accepted. */
  isBrowserConnected(browserId: string): boolean;
  /** Disconnects a donated browser whose pairing was revoked, telling it so. */
  disconnectRevoked(browserId: string): void;
  /** What each browser last reported holding for its tasks (windows, debugger sessions, rules). */
  browserStatuses(): Array<{
    browserId: string;
    browserClass: BrowserClass;
    status: BrowserStatus | undefined;
  }>;
  /** Connected browsers with the tasks they finished and the extension API calls those cost. */
  engineStats(): BrowserEngineStats[];
  /** Each connected browser's extension, the tasks it runs now and its last failures (console). */
  browserDetails(): BrowserDetails[];
  /** The scheduler's browsers, their free slots and its queue, read-only (metrics). */
  schedulerSnapshot(): SchedulerSnapshot;
  close(): Promise<void>;
}

/**
 * Captures can be several MB of HTML; this bounds what one frame may cost us. ws defaults to
 * 100 MiB, which is more than any page we want to hold in memory at once.
 */
export const MAX_FRAME_BYTES = MAX_MESSAGE_BYTES;
/** Application heartbeat. Protocol pings do not keep an MV3 worker alive; messages it sees do. */
export const HEARTBEAT_INTERVAL_MS = 15_000;
/** A browser that has sent nothing for this long is treated as gone. */
export const LIVENESS_TIMEOUT_MS = 3 * HEARTBEAT_INTERVAL_MS;
export const HELLO_TIMEOUT_MS = 10_000;
/** How long a task waits when no browser is connected at all (a launched browser starts in ~1 s). */
export const NO_BROWSER_GRACE_MS = 30_000;
/**
 * How often connected donated browsers are checked against the store, so that a revocation made
 * through another server instance also disconnects them within seconds.
 */
export const REVOCATION_CHECK_MS = 2_000;
/** Close code (RFC 6455 "try again later") when the store cannot say who a device token is. */
const TRY_AGAIN_LATER = 1013;
/** Close code ws sends (RFC 6455 "message too big") for a frame over the socket's limit. */
const MESSAGE_TOO_BIG = 1009;
/**
 * Sockets whose hello is not accepted yet, at most: each may hold up to PRE_AUTH_MAX_FRAME_BYTES
 * for up to HELLO_TIMEOUT_MS. Browsers send their hello as soon as the socket opens, so even every
 * donated browser reconnecting after a restart (with jittered backoff) stays well below.
 */
export const MAX_PENDING_SOCKETS = 128;
/**
 * How long a hello for a connected browser waits for the browser's other socket to answer a ping
 * and a heartbeat; one that does not is dead (at most half the hello timeout, so the waiting hello
 * is not itself timed out).
 */
export const LIVE_PROBE_MS = 5_000;

interface Session {
  browserId: string | undefined;
  /** A hello is being checked (device tokens are looked up in the store). */
  greeting: boolean;
  /** Paired by a person for a team, as opposed to launched by this server. */
  donated: boolean;
  browserClass: BrowserClass;
  socket: WebSocket;
  lastSeenAt: number;
  status: BrowserStatus | undefined;
  /** Where the socket came from, for the log. */
  remoteAddress: string | undefined;
  /** Turned away and closing: whatever it still sends is ignored. */
  refused: boolean;
  /** Tasks this connection finished, and the worker's extension API calls at its latest result. */
  engine: { tasks: number; apiCalls: number };
  /** The node token it joined with (a browser node's browser). */
  nodeTokenId?: string;
  /** The team a team node's browser serves only. */
  teamId?: string;
  /** It said it takes no new tasks. */
  draining: boolean;
  /** Pool tabs it offers (0 for donated browsers). */
  capacity: number;
  /** What its hello said it runs. */
  extensionVersion?: string;
  userAgent?: string;
  /** Its last tasks that failed, newest first. */
  failures: RecentFailures;
}

/**
 * A connected browser as the console shows it. Task URLs have no query, fragment or credentials;
 * each task and failure keeps its team, so a reader can show a team its own tasks only.
 */
export interface BrowserDetails {
  browserId: string;
  extensionVersion: string | undefined;
  userAgent: string | undefined;
  runningTasks: Array<{ taskId: string; url: string; teamId?: string; startedAt: string }>;
  recentFailures: BrowserFailure[];
}

/** How much of its browser's main thread a connected browser's tasks cost (admin API, bench). */
export interface BrowserEngineStats {
  id: string;
  kind: 'launched' | 'donated' | 'node';
  /** Page tasks finished over this connection. */
  tasks: number;
  /** Extension API calls the browser's worker made since it started, as of its latest result. */
  engineCalls: number;
}

export function createBrowserHub({
  log,
  tokens,
  tabsPerBrowser,
  heartbeatIntervalMs = HEARTBEAT_INTERVAL_MS,
  livenessTimeoutMs = 3 * heartbeatIntervalMs,
  noBrowserGraceMs = NO_BROWSER_GRACE_MS,
  donatedBrowsers,
  nodeTokens,
  revocationCheckMs = REVOCATION_CHECK_MS,
  helloTimeoutMs = HELLO_TIMEOUT_MS,
  maxPendingSockets = MAX_PENDING_SOCKETS,
  liveProbeMs = Math.min(LIVE_PROBE_MS, helloTimeoutMs / 2),
  reservations,
}: {
  log: Log;
  tokens: BrowserTokens;
  /** Paired browsers; without it only launched browsers can connect. */
  donatedBrowsers?: DonatedBrowserDirectory;
  /** Browser node tokens (`npm run browser-node`); without it no node can join. */
  nodeTokens?: NodeTokenDirectory;
  revocationCheckMs?: number;
  tabsPerBrowser: number;
  heartbeatIntervalMs?: number;
  livenessTimeoutMs?: number;
  noBrowserGraceMs?: number;
  helloTimeoutMs?: number;
  maxPendingSockets?: number;
  liveProbeMs?: number;
  /**
   * Launched browsers kept for one task each (session browsers): the task a launched browser is
   * reserved for, by the id its launch token gave it; the token decides, never what the hello says.
   */
  reservations?: { reservedFor(browserId: string): string | undefined };
}): BrowserHub {
  // Every socket starts with a small frame limit, raised once its hello is accepted (frame-limit.ts);
  // compression stays off, since permessage-deflate would keep a limit of its own.
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: PRE_AUTH_MAX_FRAME_BYTES,
    perMessageDeflate: false,
  });
  const scheduler = createTaskScheduler({ noBrowserGraceMs });
  const sessions = new Set<Session>();
  const byBrowserId = new Map<string, Session>();
  const sessionListeners = new Set<(message: SessionReplyMessage | SessionEventMessage) => void>();

  const send = (session: Session, message: ServerMessage) => {
    if (session.socket.readyState === session.socket.OPEN) session.socket.send(JSON.stringify(message));
  };

  const drop = (session: Session, code: number, reason: string) => {
    session.socket.close(code, reason);
    // A peer that never answers the close handshake must not keep its slot.
    setTimeout(() => session.socket.terminate(), 2_000).unref();
  };

  /**
   * Turns away a socket whose hello was not accepted, with the reason in the log: a browser kept
   * out (by a spent launch token, an old extension) must show up for the operator.
   */
  const refuse = (session: Session, code: number, reason: string, fields: Record<string, unknown> = {}) => {
    if (session.refused) return;
    session.refused = true;
    log.warn('browser refused', { reason, closeCode: code, remoteAddress: session.remoteAddress, ...fields });
    drop(session, code, reason);
  };

  /** A browser whose hello was accepted may send results as large as any frame may be. */
  const allowLargeFrames = (session: Session) => {
    if (!raiseFrameLimit(session.socket, MAX_FRAME_BYTES)) {
      log.error('could not raise the frame limit of a browser socket: its large results will fail', {
        browserId: session.browserId,
      });
    }
  };

  const greet = async (session: Session, hello: HelloMessage) => {
    if (hello.protocolVersion !== PROTOCOL_VERSION) {
      refuse(session, HubCloseCode.VERSION_MISMATCH, `server speaks protocol ${PROTOCOL_VERSION}`, {
        protocolVersion: hello.protocolVersion,
        extensionVersion: hello.extensionVersion,
      });
      return;
    }
    // Kept for the console; a browser turned away below is never listed.
    session.extensionVersion = hello.extensionVersion.slice(0, 100);
    session.userAgent = hello.userAgent.slice(0, 500);
    const checked = tokens.check(hello.token);
    if (checked.kind === 'unknown') {
      await (isNodeToken(hello.token) ? greetNode(session, hello) : greetDonated(session, hello));
      return;
    }
    if (checked.kind !== 'valid') {
      refuseLaunchedToken(session, hello, checked);
      return;
    }
    if (!(await admitted(session, checked.browserId))) return;
    // Spent now, in the same turn as the browser is registered below: of two hellos that present
    // one token, the second finds it spent, which is a replay.
    const grant = tokens.spend(hello.token);
    if (grant === undefined) {
      refuseLaunchedToken(session, hello, tokens.check(hello.token));
      return;
    }

    session.browserId = grant.browserId;
    session.browserClass = hello.browserClass;
    byBrowserId.set(grant.browserId, session);
    allowLargeFrames(session);
    if (hello.lostTaskIds.length > 0) {
      log.warn('browser reports lost tasks', { browserId: grant.browserId, taskIds: hello.lostTaskIds });
    }
    const reservedFor = reservations?.reservedFor(grant.browserId);
    welcomePoolBrowser(session, {
      browserId: grant.browserId,
      sessionToken: grant.sessionToken,
      browserClass: hello.browserClass,
      ...(reservedFor === undefined ? {} : { reservedFor }),
    });
    log.info('browser connected', {
      browserId: grant.browserId,
      browserClass: hello.browserClass,
      userAgent: hello.userAgent,
      extensionVersion: hello.extensionVersion,
      browsers: scheduler.workerCount(),
    });
  };

  /**
   * Whether a hello for this browser may go on. Never while another socket of the same browser
   * still answers: a second hello does not replace the first, since only a copied credential makes
   * one (the extension holds one socket). A socket that does not answer within the probe is a dead
   * one the server has not noticed yet (a worker that restarted, a dropped connection): it is let
   * go, so the browser's own reconnect gets in within seconds.
   */
  const admitted = async (session: Session, browserId: string): Promise<boolean> => {
    const live = byBrowserId.get(browserId);
    if (live !== undefined) {
      const answers = await socketAnswers(live.socket, {
        timeoutMs: liveProbeMs,
        ask: () => send(live, { type: 'heartbeat', sentAt: Date.now() }),
      });
      if (answers && byBrowserId.get(browserId) === live) {
        refuse(session, HubCloseCode.ALREADY_CONNECTED, 'this browser is connected on another socket', {
          browserId,
        });
        return false;
      }
      if (byBrowserId.get(browserId) === live) forget(live, 'its socket stopped answering');
    }
    return sessions.has(session) && !session.refused;
  };

  /**
   * A launched browser's token that is spent or revoked. A spent one is a replay: someone holds a
   * copy of the browser's credentials. The browser is revoked, its live socket (the thief's or its
   * own, whichever came first) closed, and the launcher relaunches it with new credentials.
   */
  const refuseLaunchedToken = (session: Session, hello: HelloMessage, checked: TokenCheck) => {
    switch (checked.kind) {
      // Valid only if it was not spent meanwhile, and then it was: never here in practice.
      case 'valid':
      case 'unknown':
        refuse(session, HubCloseCode.UNAUTHORIZED, 'unknown or spent token', { token: 'unknown' });
        return;
      case 'revoked':
        refuse(session, HubCloseCode.REVOKED, 'this browser was revoked', { browserId: checked.browserId });
        return;
      case 'replayed': {
        const { browserId, spentToken } = checked;
        log.error('browser credentials replayed: browser revoked', {
          browserId,
          spentToken,
          remoteAddress: session.remoteAddress,
          userAgent: hello.userAgent.slice(0, 200),
        });
        tokens.revokeBrowser(browserId);
        const live = byBrowserId.get(browserId);
        if (live !== undefined) {
          live.refused = true;
          drop(live, HubCloseCode.REVOKED, 'this browser was revoked: its credentials were replayed');
          forget(live, 'revoked: credentials replayed');
        }
        refuse(session, HubCloseCode.UNAUTHORIZED, 'unknown or spent token', {
          token: `${spentToken} token already spent`,
          spentBy: browserId,
          extensionVersion: hello.extensionVersion,
        });
        return;
      }
      default:
        assertNever(checked);
    }
  };

  /**
   * Welcomes a pool browser (launched here, or a node's) and hands it to the scheduler with all its
   * tabs; its tasks carry the state key their browser state belongs to. `teamId`: a team node's.
   */
  const welcomePoolBrowser = (
    session: Session,
    {
      browserId,
      sessionToken,
      browserClass,
      teamId,
      reservedFor,
    }: {
      browserId: string;
      sessionToken: string;
      browserClass: BrowserClass;
      teamId?: string;
      reservedFor?: string;
    },
  ) => {
    // A session's own browser runs that session's one tab and offers the pool nothing.
    const capacity = reservedFor === undefined ? tabsPerBrowser : 1;
    send(session, {
      type: 'welcome',
      protocolVersion: PROTOCOL_VERSION,
      browserId,
      sessionToken,
      heartbeatIntervalMs,
      maxConcurrentTasks: capacity,
    });
    session.capacity = reservedFor === undefined ? tabsPerBrowser : 0;
    scheduler.addWorker({
      id: browserId,
      capacity,
      browserClass,
      ...(teamId === undefined ? {} : { teamId }),
      ...(reservedFor === undefined ? {} : { reservedFor }),
      send: ({ taskId, spec, timeoutMs, stateKey }) =>
        send(session, {
          type: 'task',
          taskId,
          spec,
          timeoutMs,
          ...(stateKey === undefined ? {} : { stateKey }),
        }),
      cancel: (taskId, reason) => send(session, { type: 'cancel', taskId, reason }),
      sendSession: (message) => send(session, message),
    });
  };

  /**
   * Looks a hello's token up in the store. A store that cannot answer turns the browser away for
   * now (it retries later); a socket that closed meanwhile is forgotten. Undefined in both cases.
   */
  const lookUp = async <T>(
    session: Session,
    find: () => Promise<T> | undefined,
  ): Promise<{ found: T | undefined } | undefined> => {
    let found: T | undefined;
    try {
      found = await find();
    } catch (err) {
      refuse(session, TRY_AGAIN_LATER, 'the server cannot check this browser right now', {
        error: String(err),
      });
      return undefined;
    }
    return sessions.has(session) ? { found } : undefined;
  };

  /**
   * A browser of a browser node (another machine, or a container): its node token, looked up in
   * the store, lets in any number of browsers, of the shared pool or of one team. Each connection
   * gets a browser id of its own; the node token stays its credential for reconnects, to this
   * instance or to any other behind the same address.
   */
  const greetNode = async (session: Session, hello: HelloMessage) => {
    const lookup = await lookUp(session, () => nodeTokens?.find(hello.token));
    if (lookup === undefined) return;
    const node = lookup.found;
    if (node === undefined) {
      refuse(session, HubCloseCode.UNAUTHORIZED, 'unknown node token', {
        extensionVersion: hello.extensionVersion,
      });
      return;
    }
    if (node.revoked) {
      refuse(session, HubCloseCode.REVOKED, 'this node token was revoked', { nodeTokenId: node.tokenId });
      return;
    }
    const browserId = randomUUID();
    session.browserId = browserId;
    session.browserClass = hello.browserClass;
    session.nodeTokenId = node.tokenId;
    if (node.teamId !== null) session.teamId = node.teamId;
    byBrowserId.set(browserId, session);
    allowLargeFrames(session);
    welcomePoolBrowser(session, {
      browserId,
      sessionToken: hello.token,
      browserClass: hello.browserClass,
      ...(node.teamId === null ? {} : { teamId: node.teamId }),
    });
    void nodeTokens
      ?.seen(node.tokenId)
      .catch((err: unknown) => log.warn('could not record a node browser', { error: String(err) }));
    log.info('node browser connected', {
      browserId,
      nodeTokenId: node.tokenId,
      teamId: node.teamId ?? 'pool',
      browserClass: hello.browserClass,
      remoteAddress: session.remoteAddress,
      browsers: scheduler.workerCount(),
    });
  };

  /**
   * A paired browser: its device token names its team in the store. It serves that team only, on
   * the terms its owner sent in this hello; the device token stays its credential (sessionToken).
   */
  const greetDonated = async (session: Session, hello: HelloMessage) => {
    const lookup = await lookUp(session, () => donatedBrowsers?.find(hello.token));
    if (lookup === undefined) return;
    const device = lookup.found;
    if (device === undefined) {
      refuse(session, HubCloseCode.UNAUTHORIZED, 'unknown or spent token', {
        token: 'unknown',
        extensionVersion: hello.extensionVersion,
        userAgent: hello.userAgent,
      });
      return;
    }
    if (device.revoked) {
      refuse(session, HubCloseCode.REVOKED, 'this browser was unpaired by its team', {
        browserId: device.browserId,
        teamId: device.team.id,
      });
      return;
    }
    const terms = hello.donation ?? {
      enabled: false,
      allowedDomains: [],
      maxTabs: 1,
      allowJavascript: false,
    };
    // A device token outlives browser restarts and is not rotated: a second hello with it is
    // refused while the first socket answers, and another that got in meanwhile is not replaced.
    if (!(await admitted(session, device.browserId))) return;
    if (byBrowserId.has(device.browserId)) {
      refuse(session, HubCloseCode.ALREADY_CONNECTED, 'this browser is connected on another socket', {
        browserId: device.browserId,
      });
      return;
    }
    session.browserId = device.browserId;
    session.donated = true;
    session.browserClass = hello.browserClass;
    byBrowserId.set(device.browserId, session);
    allowLargeFrames(session);
    if (hello.lostTaskIds.length > 0) {
      log.warn('browser reports lost tasks', { browserId: device.browserId, taskIds: hello.lostTaskIds });
    }
    const capacity = Math.min(terms.maxTabs, tabsPerBrowser);
    send(session, {
      type: 'welcome',
      protocolVersion: PROTOCOL_VERSION,
      browserId: device.browserId,
      sessionToken: hello.token,
      heartbeatIntervalMs,
      maxConcurrentTasks: capacity,
      team: device.team,
    });
    scheduler.addWorker({
      id: device.browserId,
      capacity,
      browserClass: hello.browserClass,
      donation: { ...terms, teamId: device.team.id },
      send: ({ taskId, spec, timeoutMs }) => send(session, { type: 'task', taskId, spec, timeoutMs }),
      cancel: (taskId, reason) => send(session, { type: 'cancel', taskId, reason }),
      sendSession: (message) => send(session, message),
    });
    await donatedBrowsers
      ?.connected(device.browserId, terms)
      .catch((err: unknown) => log.warn('could not record a donated browser', { error: String(err) }));
    log.info('donated browser connected', {
      browserId: device.browserId,
      teamId: device.team.id,
      allowedDomains: terms.allowedDomains.length,
      enabled: terms.enabled,
      browsers: scheduler.workerCount(),
    });
  };

  const disconnectRevokedNode = (session: Session) => {
    log.info('node browser revoked', { browserId: session.browserId, nodeTokenId: session.nodeTokenId });
    drop(session, HubCloseCode.REVOKED, 'this node token was revoked');
    forget(session, 'revoked');
  };

  const disconnectRevoked = (browserId: string) => {
    const session = byBrowserId.get(browserId);
    if (session === undefined || !session.donated) return;
    log.info('donated browser revoked', { browserId });
    drop(session, HubCloseCode.REVOKED, 'this browser was unpaired by its team');
    forget(session, 'revoked');
  };

  const forget = (session: Session, why: string) => {
    sessions.delete(session);
    if (session.browserId === undefined) return;
    if (byBrowserId.get(session.browserId) === session) {
      byBrowserId.delete(session.browserId);
      scheduler.removeWorker(session.browserId);
      log.info('browser disconnected', {
        browserId: session.browserId,
        browserClass: session.browserClass,
        ...(session.teamId === undefined ? {} : { teamId: session.teamId }),
        why,
        browsers: scheduler.workerCount(),
      });
    }
    session.browserId = undefined;
    session.socket.terminate();
  };

  /** Read before the scheduler settles the task: afterwards it no longer knows the task's URL. */
  const recordFailure = (session: Session, taskId: string, error: { code: string; message: string }) => {
    const task = scheduler.runningTasks(session.browserId as string).find((held) => held.taskId === taskId);
    if (task === undefined) return;
    session.failures.record({
      at: new Date().toISOString(),
      taskId,
      url: displayUrl(task.url),
      ...(task.teamId === undefined ? {} : { teamId: task.teamId }),
      code: error.code,
      message: error.message,
    });
  };

  const onMessage = (session: Session, data: unknown) => {
    if (session.refused) return;
    session.lastSeenAt = Date.now();
    const decoded = decodeBrowserMessage(data);
    if (!decoded.ok) {
      if (session.browserId === undefined) {
        refuse(session, HubCloseCode.BAD_HELLO, 'expected hello', { error: decoded.error.slice(0, 300) });
      } else log.warn('invalid message from browser', { browserId: session.browserId, error: decoded.error });
      return;
    }
    const message = decoded.message;
    if (session.greeting) return;
    if (session.browserId === undefined && message.type !== 'hello') {
      refuse(session, HubCloseCode.BAD_HELLO, 'expected hello', { messageType: message.type });
      return;
    }
    switch (message.type) {
      case 'hello':
        if (session.browserId === undefined) {
          session.greeting = true;
          void greet(session, message).finally(() => {
            session.greeting = false;
          });
        }
        break;
      case 'result': {
        if (!message.ok) recordFailure(session, message.taskId, message.error);
        const outcome = message.ok
          ? { capture: message.capture }
          : { error: new TaskError(message.error.code, message.error.message) };
        session.engine.tasks += 1;
        if (message.apiCalls !== undefined) session.engine.apiCalls = message.apiCalls;
        if (!scheduler.complete(session.browserId as string, message.taskId, outcome)) {
          log.warn('result for a task this browser does not hold', {
            browserId: session.browserId,
            taskId: message.taskId,
          });
        }
        break;
      }
      case 'heartbeat':
        if (message.status !== undefined) session.status = message.status;
        break;
      case 'drain':
        if (!session.draining) {
          session.draining = true;
          scheduler.drain(session.browserId as string);
          log.info('browser draining', { browserId: session.browserId, nodeTokenId: session.nodeTokenId });
        }
        break;
      case 'session-reply':
      case 'session-event':
        // Only from the browser that runs the task: no browser speaks for another's session.
        if (scheduler.workerOf(message.taskId)?.id !== session.browserId) {
          log.warn('session message for a task this browser does not hold', {
            browserId: session.browserId,
            taskId: message.taskId,
            messageType: message.type,
          });
          break;
        }
        for (const listener of sessionListeners) listener(message);
        break;
      default:
        assertNever(message);
    }
  };

  wss.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    const session: Session = {
      browserId: undefined,
      greeting: false,
      donated: false,
      browserClass: 'basic',
      socket,
      lastSeenAt: Date.now(),
      status: undefined,
      remoteAddress: request.socket.remoteAddress,
      refused: false,
      engine: { tasks: 0, apiCalls: 0 },
      draining: false,
      capacity: 0,
      failures: createRecentFailures(),
    };
    const pending = [...sessions].filter((other) => other.browserId === undefined).length;
    sessions.add(session);
    if (pending >= maxPendingSockets) {
      refuse(session, HubCloseCode.BUSY, 'too many browsers are connecting at once', { pending });
    }
    const helloTimer = setTimeout(() => {
      if (session.browserId === undefined) refuse(session, HubCloseCode.BAD_HELLO, 'no hello in time');
    }, helloTimeoutMs);
    socket.on('message', (data, isBinary) => {
      if (isBinary) return;
      onMessage(session, data.toString());
    });
    socket.on('close', () => {
      clearTimeout(helloTimer);
      forget(session, 'socket closed');
    });
    socket.on('error', (err: Error & { code?: string }) => {
      // ws has refused the frame at its header, before buffering it, and is closing with 1009.
      if (session.browserId === undefined && err.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') {
        refuse(session, MESSAGE_TOO_BIG, `frame larger than ${PRE_AUTH_MAX_FRAME_BYTES} bytes before hello`);
      } else log.warn('browser socket error', { browserId: session.browserId, error: err.message });
    });
  });

  const ticker = setInterval(() => {
    const now = Date.now();
    for (const session of sessions) {
      if (session.browserId === undefined) continue;
      if (now - session.lastSeenAt > livenessTimeoutMs) {
        log.warn('browser went silent', { browserId: session.browserId });
        drop(session, HubCloseCode.SILENT, 'no message within the liveness window');
        forget(session, 'silent');
        continue;
      }
      send(session, { type: 'heartbeat', sentAt: now });
    }
  }, heartbeatIntervalMs);
  ticker.unref();

  let checkingRevocations = false;
  const checkRevocations = async () => {
    const connected = [...byBrowserId.values()];
    const donatedIds = connected
      .filter((session) => session.donated)
      .map((session) => session.browserId as string);
    if (donatedBrowsers !== undefined && donatedIds.length > 0) {
      (await donatedBrowsers.revokedAmong(donatedIds)).forEach(disconnectRevoked);
    }
    const nodeTokenIds = [
      ...new Set(
        connected.flatMap((session) => (session.nodeTokenId === undefined ? [] : [session.nodeTokenId])),
      ),
    ];
    if (nodeTokens !== undefined && nodeTokenIds.length > 0) {
      const revoked = new Set(await nodeTokens.revokedAmong(nodeTokenIds));
      for (const session of connected) {
        if (session.nodeTokenId !== undefined && revoked.has(session.nodeTokenId))
          disconnectRevokedNode(session);
      }
    }
  };
  const revocationTicker = setInterval(() => {
    if (checkingRevocations) return;
    checkingRevocations = true;
    checkRevocations()
      .catch((err: unknown) => log.warn('could not check for revoked browsers', { error: String(err) }))
      .finally(() => {
        checkingRevocations = false;
      });
  }, revocationCheckMs);
  revocationTicker.unref();

  return {
    handleUpgrade(request, socket, head) {
      if (!hubOriginAllowed(request.headers.origin)) {
        log.warn('browser refused', {
          reason: 'origin not allowed',
          status: 403,
          origin: request.headers.origin?.slice(0, 200),
          remoteAddress: request.socket.remoteAddress,
        });
        // A web page (any Origin but the extension's) never gets a hub socket, whatever it sends.
        socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
    },
    runTask: (spec, options) => scheduler.run(spec, options),
    sendSession(message) {
      const worker = scheduler.workerOf(message.taskId);
      if (worker?.sendSession === undefined) return false;
      worker.sendSession(message);
      return true;
    },
    taskBrowser(taskId) {
      const worker = scheduler.workerOf(taskId);
      return worker === undefined
        ? undefined
        : {
            browserId: worker.id,
            donated: worker.donation !== undefined,
            browserClass: worker.browserClass ?? 'basic',
          };
    },
    cancelTask: (taskId, reason) => scheduler.cancel(taskId, reason),
    onSessionMessage(listener) {
      sessionListeners.add(listener);
      return () => sessionListeners.delete(listener);
    },
    connectedBrowsers: (browserClass) => scheduler.workerCount(browserClass),
    spareSlots: (browserClass) => scheduler.spareSlots(browserClass),
    hasPoolBrowser: (browserClass, teamId) => scheduler.hasPoolBrowser(browserClass, teamId),
    poolTabs: (browserClass, { sharedOnly = false } = {}) =>
      [...byBrowserId.values()]
        .filter(
          (session) =>
            !session.donated &&
            !session.draining &&
            session.browserClass === browserClass &&
            (!sharedOnly || session.teamId === undefined),
        )
        .reduce((sum, session) => sum + session.capacity, 0),
    donatedCovers: (teamId, url) => scheduler.donatedCovers(teamId, url),
    donatedBrowsersFor: (teamId, url) => scheduler.donatedBrowsersFor(teamId, url),
    isBrowserConnected: (browserId) => byBrowserId.has(browserId),
    disconnectRevoked,
    browserStatuses: () =>
      [...byBrowserId.values()].map((session) => ({
        browserId: session.browserId as string,
        browserClass: session.browserClass,
        status: session.status,
      })),
    engineStats: (): BrowserEngineStats[] =>
      [...byBrowserId.values()].map((session) => ({
        id: session.browserId as string,
        kind: session.donated ? 'donated' : session.nodeTokenId !== undefined ? 'node' : 'launched',
        tasks: session.engine.tasks,
        engineCalls: session.engine.apiCalls,
      })),
    browserDetails: (): BrowserDetails[] =>
      [...byBrowserId.values()].map((session) => ({
        browserId: session.browserId as string,
        extensionVersion: session.extensionVersion,
        userAgent: session.userAgent,
        runningTasks: scheduler.runningTasks(session.browserId as string).map((task) => ({
          taskId: task.taskId,
          url: displayUrl(task.url),
          ...(task.teamId === undefined ? {} : { teamId: task.teamId }),
          startedAt: new Date(task.startedAt).toISOString(),
        })),
        recentFailures: session.failures.list(),
      })),
    schedulerSnapshot: () => scheduler.snapshot(),
    async close() {
      clearInterval(ticker);
      clearInterval(revocationTicker);
      scheduler.close();
      for (const session of [...sessions]) {
        session.socket.close(HubCloseCode.SHUTDOWN, 'server shutting down');
        forget(session, 'shutdown');
      }
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
