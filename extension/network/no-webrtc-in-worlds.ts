/**
 * Takes WebRTC out of the isolated world a caller's code runs in (executeJavascript, a session's
 * execute), in launched and donated browsers alike: WebRTC's connections (ICE, TURN over TCP) pass
 * no network rule of the extension, so a caller could probe private ports with them (M1 of
 * docs/security.md's threat list). The page's own world is handled apart (no-webrtc-in-pages.ts,
 * launched browsers), and a launched browser's egress proxy refuses such connections anyway.
 * Frames reached through their elements (`contentWindow`, `contentDocument`) are cleaned the
 * same way before the caller gets them. Self-contained: it is sent as source.
 */
export function removeWebRtcFromWorld(): void {
  const names = ['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCIceTransport', 'RTCRtpTransceiver'];
  const cleaned = new WeakSet<object>();
  const clean = (win: unknown): void => {
    if (typeof win !== 'object' || win === null || cleaned.has(win)) return;
    cleaned.add(win);
    const scope = win as Record<string, unknown>;
    for (const name of names) {
      try {
        delete scope[name];
      } catch {
        // Not configurable here: nothing a page could have changed.
      }
    }
    for (const element of ['HTMLIFrameElement', 'HTMLFrameElement', 'HTMLObjectElement']) {
      const proto = (scope[element] as { prototype?: object } | undefined)?.prototype;
      if (proto === undefined) continue;
      for (const property of ['contentWindow', 'contentDocument']) {
        const descriptor = Object.getOwnPropertyDescriptor(proto, property);
        const get = descriptor?.get;
        if (get === undefined) continue;
        try {
          Object.defineProperty(proto, property, {
            configurable: false,
            enumerable: descriptor?.enumerable ?? true,
            get(this: unknown) {
              const value: unknown = get.call(this);
              clean(property === 'contentWindow' ? value : (value as Document | null)?.defaultView);
              return value;
            },
          });
        } catch {
          // Already ours: Chromium gives every call that names the world the same one.
        }
      }
    }
  };
  clean(globalThis);
}

/** The statement that runs removeWebRtcFromWorld, to put before a caller's code in its world. */
export const WITHOUT_WEBRTC = `(${removeWebRtcFromWorld.toString()})();\n`;
