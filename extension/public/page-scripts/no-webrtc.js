// Run in every frame of a launched browser before the page's own scripts (registered by
// extension/network/no-webrtc-in-pages.ts): WebRTC opens connections of its own (ICE, TURN over TCP)
// that no network rule of the extension sees, so a page could probe private ports with it. Pages
// of a scraping browser have no call to make; the constructors are taken away.
(() => {
  for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection']) {
    try {
      delete globalThis[name];
    } catch {
      // Not configurable in this frame: leave it.
    }
  }
})();
