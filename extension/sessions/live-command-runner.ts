import type {
  DonationTerms,
  SessionCommand,
  SessionEvent,
  SessionInput,
} from '../../shared/protocol/messages';
import type { NetworkPolicy } from '../../shared/url/network-policy';
import type { CdpSession } from '../debugger/cdp-session';
import type { AddressGuard } from '../network/task-address-guard';
import { PageTaskError } from '../task-kit/page-task-error';
import type { DirectCdp } from './cdp-direct';
import { checkRelayCommand, RELAY_NO_OP_METHODS } from './cdp-relay-allowlist';
import { createRelayContexts } from './cdp-relay-contexts';
import { relayNavigationRefusal } from './cdp-relay-navigation';
import { createLiveScreencast } from './live-screencast';

/** The session commands of the live view and the cdpUrl relay. */
export type LiveCommand = Extract<
  SessionCommand,
  { kind: 'screencast' | 'frame-ack' | 'input' | 'cdp' | 'cdp-events' }
>;

export interface LiveCommandDeps {
  tabId: number;
  /** The session tab's debugger session: events come from it. */
  cdp: CdpSession;
  emit(event: SessionEvent): void;
  /** The tab is in a person's own browser: the relay refuses more there. */
  donated: boolean;
  /**
   * The session's address guard: once it has seen a refused address, every live command is
   * refused (the session ends too, session-task.ts). Without one, nothing is refused for it.
   */
  guard?: Pick<AddressGuard, 'violation'> | undefined;
  /** Where the tab may go (the task's network policy); the strict default without one. */
  networkPolicy?: NetworkPolicy | undefined;
}

export interface LiveCommands {
  run(command: LiveCommand): Promise<unknown>;
  /** Stops the screencast and the event forwarding; the debugger stays with its owner. */
  stop(): Promise<void>;
}

/**
 * The live commands of one session tab (live-commands.ts wires them to chrome.debugger and the
 * donation settings; tests pass fakes). Every command a caller drives (the relay's CDP, the live
 * view's input) goes through one check, cdp-relay-allowlist.ts, before it reaches the tab; the
 * screencast's own commands are Tabhive's. Once the session's address guard has tripped, nothing
 * more is served: the tab may show a page from an address the policy refuses.
 */
export function createLiveCommandRunner({
  cdp,
  emit,
  donated,
  guard,
  networkPolicy,
  direct,
  donorTerms,
}: LiveCommandDeps & {
  /** Sends to the tab past the task allowlist. */
  direct: DirectCdp;
  /** What the owner of a donated browser allows now. */
  donorTerms(): Promise<DonationTerms>;
}): LiveCommands {
  const screencast = createLiveScreencast({ cdp, emit, direct });
  const contexts = createRelayContexts();
  // From the start, forwarded or not: a client learns no context id this has not judged.
  const stopObserving = cdp.onEvent((method, params) => contexts.observe(method, params));
  let stopForwarding: (() => void) | undefined;

  const forwardEvents = (enabled: boolean) => {
    if (enabled && stopForwarding === undefined) {
      stopForwarding = cdp.onEvent((method, params) => {
        // Frames reach the live view as frame events; a relay client never started a screencast.
        if (method === 'Page.screencastFrame' || method === 'Page.screencastVisibilityChanged') return;
        // Worlds the client may not reach are not announced to it either.
        if (!contexts.showsEvent(method, params)) return;
        // Nor does anything of a page from a refused address reach it (a script the client had
        // added to every new document would otherwise log that page out through events).
        if (guard?.violation() !== undefined) return;
        emit({ kind: 'cdp', method, params });
      });
    } else if (!enabled) {
      stopForwarding?.();
      stopForwarding = undefined;
    }
  };

  const assertGuardClean = () => {
    const violation = guard?.violation();
    if (violation !== undefined) {
      throw new PageTaskError(
        'URL_BLOCKED',
        `the session's tab connected to an address the URL policy refuses; it serves no more commands (${violation.message})`,
      );
    }
  };

  /**
   * The one way a caller's command reaches the tab. `relay`: from a cdpUrl client, which a
   * donor's scripts permission covers (the live view's input is a person's clicks and keys).
   */
  const callerCommand = async (
    method: string,
    params: Record<string, unknown> | undefined,
    { relay }: { relay: boolean },
  ) => {
    assertGuardClean();
    const terms = donated ? await donorTerms() : undefined;
    if (terms !== undefined && relay) {
      const refusal = donorRelayRefusal(terms);
      if (refusal !== undefined) throw new PageTaskError('TASK_REFUSED', refusal);
    }
    const verdict = checkRelayCommand(method, params, { donated, contexts });
    if (!verdict.ok) throw new PageTaskError('TASK_REFUSED', verdict.reason);
    const navigation = await relayNavigationRefusal(method, verdict.params, {
      direct,
      networkPolicy,
      donorTerms: terms,
    }).catch((err: unknown) => ({
      code: 'URL_BLOCKED' as const,
      message: `the navigation could not be checked: ${err instanceof Error ? err.message : String(err)}`,
    }));
    if (navigation !== undefined) throw new PageTaskError(navigation.code, navigation.message);
    const worldName = verdict.params['worldName'];
    if (typeof worldName === 'string') contexts.nameWorld(worldName);
    let answer: unknown;
    try {
      // The tab has one debugger client for every relay client: a second Runtime.enable
      // would report no execution contexts, and a reconnecting client would wait forever
      // for its page's main world. Off and on again reports them anew.
      if (method === 'Runtime.enable') await direct('Runtime.disable', {});
      answer = await direct(method, verdict.params);
    } catch (err) {
      throw new PageTaskError('BROWSER_ERROR', err instanceof Error ? err.message : String(err));
    }
    const created = (answer as { executionContextId?: unknown } | undefined)?.executionContextId;
    if (method === 'Page.createIsolatedWorld' && typeof created === 'number') contexts.created(created);
    // What the tab answered while the guard tripped is not handed over.
    assertGuardClean();
    return answer;
  };

  return {
    async run(command) {
      switch (command.kind) {
        case 'screencast':
          assertGuardClean();
          await (command.enabled ? screencast.start(command) : screencast.stop());
          return {};
        case 'frame-ack':
          await screencast.ack(command.frameSessionId);
          return {};
        case 'input':
          await dispatchInput(
            (method, params) => callerCommand(method, params, { relay: false }),
            command.input,
          );
          return {};
        case 'cdp':
          if (RELAY_NO_OP_METHODS.has(command.method)) {
            assertGuardClean();
            return {};
          }
          return callerCommand(command.method, command.params, { relay: true });
        case 'cdp-events':
          forwardEvents(command.enabled);
          return {};
        default:
          return unreachable(command);
      }
    },
    async stop() {
      stopObserving();
      forwardEvents(false);
      await screencast.stop();
    },
  };
}

/**
 * A relay client can run code in the page, so on a donated browser the relay needs the owner's
 * scripts permission; navigations stay on the owner's domains (cdp-relay-navigation.ts, and the
 * tab's network rules hold them there too).
 */
function donorRelayRefusal(terms: DonationTerms): string | undefined {
  if (!terms.enabled) return 'the donated browser is paused by its owner';
  if (!terms.allowJavascript) {
    return "the cdpUrl relay runs code in the page; this donated browser's owner has not allowed scripts";
  }
  return undefined;
}

function unreachable(command: never): never {
  throw new PageTaskError('BROWSER_ERROR', `unknown live command ${JSON.stringify(command)}`);
}

/** A person's input as trusted events (pages cannot tell them from real ones). */
async function dispatchInput(
  direct: (method: string, params: Record<string, unknown>) => Promise<unknown>,
  input: SessionInput,
): Promise<void> {
  switch (input.kind) {
    case 'mouse':
      await direct('Input.dispatchMouseEvent', {
        type: input.type,
        x: input.x,
        y: input.y,
        button: input.button,
        clickCount: input.clickCount,
        modifiers: input.modifiers ?? 0,
        ...(input.type === 'mouseWheel' ? { deltaX: input.deltaX ?? 0, deltaY: input.deltaY ?? 0 } : {}),
      });
      return;
    case 'key':
      await direct('Input.dispatchKeyEvent', {
        type: input.type,
        modifiers: input.modifiers ?? 0,
        ...(input.key === undefined ? {} : { key: input.key }),
        ...(input.code === undefined ? {} : { code: input.code }),
        // A keyDown with text types it, as a real key press does; keyUp and rawKeyDown carry none.
        ...(input.text === undefined ? {} : { text: input.text, unmodifiedText: input.text }),
        ...(input.windowsVirtualKeyCode === undefined
          ? {}
          : {
              windowsVirtualKeyCode: input.windowsVirtualKeyCode,
              nativeVirtualKeyCode: input.windowsVirtualKeyCode,
            }),
      });
      return;
    case 'text':
      await direct('Input.insertText', { text: input.text });
      return;
  }
}
