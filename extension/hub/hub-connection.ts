import {
  HubCloseCode,
  PROTOCOL_VERSION,
  assertNever,
  decodeServerMessage,
  type BrowserMessage,
  type BrowserStatus,
  type CancelMessage,
  type DonationTerms,
  type SessionCommandMessage,
  type SessionEndMessage,
  type TaskMessage,
  type WelcomeMessage,
} from '../../shared/protocol/messages';
import { backoffDelayMs } from './backoff';
import type { HubSettings } from './hub-settings';

export type HubState = 'idle' | 'connecting' | 'open' | 'waiting' | 'refused';

export interface HubConnection {
  /** (Re)connects with the current settings; a no-op while connecting or connected, unless forced. */
  connect(options?: { force?: boolean }): void;
  send(message: BrowserMessage): void;
  state(): HubState;
  close(): void;
}

export interface HubConnectionDeps {
  readSettings(): Promise<HubSettings | undefined>;
  /** Stores the session token of `welcome`, which replaces a spent launch token. */
  saveSessionToken(token: string): Promise<void>;
  /** Task ids whose work was lost when the worker last died; reported in `hello`. */
  takeLostTaskIds(): Promise<string[]>;
  onWelcome(message: WelcomeMessage): void;
  onTask(message: TaskMessage): void;
  onCancel(message: CancelMessage): void;
  /** A command for a running session task, and the end of one. */
  onSessionCommand(message: SessionCommandMessage): void;
  onSessionEnd(message: SessionEndMessage): void;
  /** `closeCode` is the server's close code when the state follows a closed socket. */
  onStateChange(state: HubState, detail?: string, closeCode?: number): void;
  /** A paired browser's terms, sent in `hello`; undefined for launched browsers. */
  readDonation?(settings: HubSettings): Promise<DonationTerms | undefined>;
  /** What the browser holds for tasks right now, reported with every heartbeat. */
  readStatus(): Promise<BrowserStatus>;
  extensionVersion: string;
  userAgent: string;
}

/** Close codes after which trying again with the same settings cannot help. */
const FINAL_CLOSE_CODES = new Set<number>([
  HubCloseCode.UNAUTHORIZED,
  HubCloseCode.REVOKED,
  HubCloseCode.VERSION_MISMATCH,
]);

/**
 * The extension's side of the hub socket: a small state machine (idle → connecting → open →
 * waiting → connecting …) that says `hello` first, answers heartbeats, and reconnects with
 * jittered exponential backoff. A refused token stops it until the settings change.
 */
export function createHubConnection(deps: HubConnectionDeps): HubConnection {
  let socket: WebSocket | undefined;
  let current: HubState = 'idle';
  let attempt = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  const setState = (state: HubState, detail?: string, closeCode?: number) => {
    current = state;
    deps.onStateChange(state, detail, closeCode);
  };

  const scheduleRetry = (closeCode?: number) => {
    const delay = backoffDelayMs(attempt);
    attempt += 1;
    setState('waiting', `retry in ${delay} ms`, closeCode);
    retryTimer = setTimeout(() => open(), delay);
  };

  const send = (message: BrowserMessage) => {
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  };

  const open = async () => {
    clearTimeout(retryTimer);
    const settings = await deps.readSettings();
    if (settings === undefined) {
      setState('idle', 'not configured');
      return;
    }
    setState('connecting');
    let ws: WebSocket;
    try {
      ws = new WebSocket(settings.serverUrl);
    } catch (err) {
      setState('refused', `bad server URL: ${String(err)}`);
      return;
    }
    socket = ws;
    ws.onopen = async () => {
      const donation = settings.origin === 'paired' ? await deps.readDonation?.(settings) : undefined;
      send({
        type: 'hello',
        protocolVersion: PROTOCOL_VERSION,
        token: settings.token,
        extensionVersion: deps.extensionVersion,
        userAgent: deps.userAgent,
        lostTaskIds: await deps.takeLostTaskIds(),
        browserClass: settings.browserClass ?? 'basic',
        ...(donation === undefined ? {} : { donation }),
      });
    };
    ws.onmessage = (event) => {
      const decoded = decodeServerMessage(event.data);
      if (!decoded.ok) {
        console.warn('tabhive: invalid message from server', decoded.error);
        return;
      }
      const message = decoded.message;
      switch (message.type) {
        case 'welcome':
          attempt = 0;
          setState('open');
          void deps.saveSessionToken(message.sessionToken);
          deps.onWelcome(message);
          break;
        case 'task':
          deps.onTask(message);
          break;
        case 'cancel':
          deps.onCancel(message);
          break;
        case 'session-command':
          deps.onSessionCommand(message);
          break;
        case 'session-end':
          deps.onSessionEnd(message);
          break;
        case 'heartbeat':
          void deps.readStatus().then(
            (status) => send({ type: 'heartbeat', sentAt: Date.now(), status }),
            () => send({ type: 'heartbeat', sentAt: Date.now() }),
          );
          break;
        default:
          assertNever(message);
      }
    };
    ws.onclose = (event) => {
      if (socket !== ws) return;
      socket = undefined;
      if (FINAL_CLOSE_CODES.has(event.code)) {
        setState('refused', event.reason || `closed with ${event.code}`, event.code);
        return;
      }
      scheduleRetry(event.code);
    };
  };

  return {
    connect({ force = false } = {}) {
      if (!force && (current === 'connecting' || current === 'open')) return;
      const previous = socket;
      socket = undefined;
      previous?.close();
      attempt = 0;
      void open();
    },
    send,
    state: () => current,
    close() {
      clearTimeout(retryTimer);
      const previous = socket;
      socket = undefined;
      previous?.close();
      setState('idle', 'closed');
    },
  };
}
