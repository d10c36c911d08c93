import { donationRefusal } from '../../shared/donation/donation-refusal';
import type { DonationTerms, SessionEvent, SessionInput } from '../../shared/protocol/messages';
import type { CdpSession } from '../debugger/cdp-session';
import { PageTaskError } from '../tasks/page-task-error';
import type { DirectCdp } from './cdp-direct';
import type { LiveCommand } from './live-commands';
import { relayRefusal } from './cdp-relay-allowlist';
import { createLiveScreencast } from './live-screencast';

export interface LiveCommandDeps {
  tabId: number;
  /** The session tab's debugger session: events come from it. */
  cdp: CdpSession;
  emit(event: SessionEvent): void;
  /** The tab is in a person's own browser: the relay refuses more there. */
  donated: boolean;
}

export interface LiveCommands {
  run(command: LiveCommand): Promise<unknown>;
  /** Stops the screencast and the event forwarding; the debugger stays with its owner. */
  stop(): Promise<void>;
}

/**
 * The live commands of one session tab (live-commands.ts wires them to chrome.debugger and the
 * donation settings; tests pass fakes).
 */
export function createLiveCommandRunner({
  cdp,
  emit,
  donated,
  direct,
  donorTerms,
}: LiveCommandDeps & {
  /** Sends to the tab past the task allowlist. */
  direct: DirectCdp;
  /** What the owner of a donated browser allows now. */
  donorTerms(): Promise<DonationTerms>;
}): LiveCommands {
  const screencast = createLiveScreencast({ cdp, emit, direct });
  let stopForwarding: (() => void) | undefined;

  const forwardEvents = (enabled: boolean) => {
    if (enabled && stopForwarding === undefined) {
      stopForwarding = cdp.onEvent((method, params) => {
        // Frames reach the live view as frame events; a relay client never started a screencast.
        if (method === 'Page.screencastFrame' || method === 'Page.screencastVisibilityChanged') return;
        emit({ kind: 'cdp', method, params });
      });
    } else if (!enabled) {
      stopForwarding?.();
      stopForwarding = undefined;
    }
  };

  return {
    async run(command) {
      switch (command.kind) {
        case 'screencast':
          await (command.enabled ? screencast.start(command) : screencast.stop());
          return {};
        case 'frame-ack':
          await screencast.ack(command.frameSessionId);
          return {};
        case 'input':
          await dispatchInput(direct, command.input);
          return {};
        case 'cdp': {
          const refusal =
            relayRefusal(command.method, command.params, { donated }) ??
            (donated ? donorRelayRefusal(await donorTerms(), command) : undefined);
          if (refusal !== undefined) throw new PageTaskError('TASK_REFUSED', refusal);
          try {
            // The tab has one debugger client for every relay client: a second Runtime.enable
            // would report no execution contexts, and a reconnecting client would wait forever
            // for its page's main world. Off and on again reports them anew.
            if (command.method === 'Runtime.enable') await direct('Runtime.disable', {});
            return await direct(command.method, command.params ?? {});
          } catch (err) {
            throw new PageTaskError('BROWSER_ERROR', err instanceof Error ? err.message : String(err));
          }
        }
        case 'cdp-events':
          forwardEvents(command.enabled);
          return {};
        default:
          return unreachable(command);
      }
    },
    async stop() {
      forwardEvents(false);
      await screencast.stop();
    },
  };
}

/**
 * A relay client can run code in the page with nearly any domain (Runtime, DOM, Input), so on a
 * donated browser the relay needs the owner's scripts permission, and navigations stay on the
 * owner's domains (the tab's network rules hold them there too).
 */
function donorRelayRefusal(
  terms: DonationTerms,
  command: Extract<LiveCommand, { kind: 'cdp' }>,
): string | undefined {
  if (!terms.enabled) return 'the donated browser is paused by its owner';
  if (!terms.allowJavascript) {
    return "the cdpUrl relay runs code in the page; this donated browser's owner has not allowed scripts";
  }
  const url = command.params?.['url'];
  if (command.method === 'Page.navigate' && typeof url === 'string') return donationRefusal(terms, { url });
  return undefined;
}

function unreachable(command: never): never {
  throw new PageTaskError('BROWSER_ERROR', `unknown live command ${JSON.stringify(command)}`);
}

/** A person's input as trusted events (pages cannot tell them from real ones). */
async function dispatchInput(direct: DirectCdp, input: SessionInput): Promise<void> {
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
