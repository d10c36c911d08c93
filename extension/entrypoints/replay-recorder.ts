import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { startReplayRecorder } from '../page/replay-recorder';

/**
 * Built as `/replay-recorder.js`, which extension/sessions/replay-recording.ts injects into a
 * recorded session tab's pages (the extension's isolated world).
 */
export default defineUnlistedScript(() => startReplayRecorder());
