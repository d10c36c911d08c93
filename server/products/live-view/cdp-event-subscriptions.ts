import type { LiveSession } from '../browser-sessions';

/**
 * The tab forwards its CDP events while at least one relay client of the session wants them: the
 * first one switches the forwarding on, the last one to leave switches it off.
 */
export function createCdpEventSubscriptions() {
  const holders = new Map<LiveSession, { count: number; enabled: Promise<void> }>();

  return {
    /** Resolves once the tab forwards events; the function returned gives the subscription back. */
    async acquire(session: LiveSession): Promise<() => void> {
      let holder = holders.get(session);
      if (holder === undefined) {
        const enabled = session.command({ kind: 'cdp-events', enabled: true }).then(() => undefined);
        holder = { count: 0, enabled };
        holders.set(session, holder);
        enabled.catch(() => {
          if (holders.get(session) === holder) holders.delete(session);
        });
      }
      holder.count += 1;
      const held = holder;
      try {
        await held.enabled;
      } catch (err) {
        held.count -= 1;
        throw err;
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        held.count -= 1;
        if (held.count > 0 || holders.get(session) !== held) return;
        holders.delete(session);
        session.command({ kind: 'cdp-events', enabled: false }).catch(() => {
          // The session ended meanwhile: its forwarding ended with it.
        });
      };
    },
  };
}

export type CdpEventSubscriptions = ReturnType<typeof createCdpEventSubscriptions>;
