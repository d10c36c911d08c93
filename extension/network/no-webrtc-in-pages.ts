import { browser } from 'wxt/browser';
import { onceUntilFailure } from './once-until-failure';

const SCRIPT_ID = 'tabhive-no-webrtc';

/**
 * Registers page-scripts/no-webrtc.js for every frame of a launched browser, at document start in
 * the page's own world (M1 of the red-team report: a TURN server on a private address took a TCP
 * connection from a task's page). Launched browsers only: a person's own browser keeps its calls.
 * Registered once per browser session (not persisted, as the profile is the launch's own).
 */
export const removeWebRtcFromPages: () => Promise<void> = onceUntilFailure(async () => {
  const existing = await browser.scripting.getRegisteredContentScripts({ ids: [SCRIPT_ID] });
  if (existing.length > 0) return;
  await browser.scripting.registerContentScripts([
    {
      id: SCRIPT_ID,
      js: ['page-scripts/no-webrtc.js'],
      matches: ['<all_urls>'],
      allFrames: true,
      matchOriginAsFallback: true,
      runAt: 'document_start',
      world: 'MAIN',
      persistAcrossSessions: false,
    },
  ]);
});
