import { browser } from 'wxt/browser';
import { defineBackground } from 'wxt/utils/define-background';
import { watchForLaunchTab } from '../utils/adopt-launch-tab';
import { readBrowserStatus } from '../utils/browser-status';
import { createHubConnection } from '../utils/hub-connection';
import { hubSettingsItem, readHubSettings, writeHubSettings } from '../utils/hub-settings';
import { taskJournal } from '../utils/task-journal';
import { removeTaskRules } from '../utils/task-network-rules';
import { closeTaskWindow } from '../utils/task-window';
import { createTaskRunner } from '../utils/task-runner';

/**
 * Wakes a worker that Chrome stopped, so it reconnects (and reclaims its orphans) by itself: while
 * disconnected, and while connected too, since a worker stopped then (a crash, a forced stop) has
 * no socket left whose messages could start it again.
 */
const RECONNECT_ALARM = 'hub-reconnect';

/**
 * Closes windows and removes network rules that a previous worker left behind, and returns the ids
 * of the tasks they belonged to.
 */
async function reclaimOrphans(): Promise<string[]> {
  const journal = await taskJournal.drain();
  await Promise.all(
    Object.values(journal).map(async ({ windowId, ruleIds }) => {
      if (windowId !== undefined) await closeTaskWindow(windowId);
      await removeTaskRules(ruleIds ?? []).catch(() => undefined);
    }),
  );
  return Object.keys(journal);
}

export default defineBackground({
  type: 'module',
  // Listeners are registered synchronously here, so that the events that wake a stopped worker find them.
  main() {
    const orphans = reclaimOrphans();
    /** The token this worker's connection holds now; storing it is no reason to reconnect. */
    let sessionToken: string | undefined;
    const readStatus = () => readBrowserStatus(runner.count());
    const runner = createTaskRunner({
      reply: (message) => hub.send(message),
      // The state after each task, unasked, so leaks show on the server without waiting for a heartbeat.
      afterTask: () =>
        void readStatus().then((status) => hub.send({ type: 'heartbeat', sentAt: Date.now(), status })),
    });
    const hub = createHubConnection({
      readSettings: readHubSettings,
      async saveSessionToken(token) {
        sessionToken = token;
        const settings = await readHubSettings();
        if (settings !== undefined && settings.token !== token)
          await writeHubSettings({ ...settings, token });
      },
      takeLostTaskIds: async () => [...(await orphans), ...(await reclaimOrphans())],
      onWelcome: () => undefined,
      onTask: (task) => runner.start(task),
      onCancel: (message) => runner.cancel(message.taskId),
      onStateChange(state, detail) {
        if (state !== 'open') runner.cancelAll();
        console.warn(`tabhive: hub ${state}${detail ? ` (${detail})` : ''}`);
      },
      readStatus,
      extensionVersion: browser.runtime.getManifest().version,
      userAgent: navigator.userAgent,
    });

    // 30 s is the shortest period Chrome allows (since 120).
    void browser.alarms.create(RECONNECT_ALARM, { periodInMinutes: 0.5 });
    browser.alarms.onAlarm.addListener((alarm) => {
      if (alarm.name === RECONNECT_ALARM) hub.connect();
    });
    hubSettingsItem.watch(async () => {
      const settings = await readHubSettings();
      if (settings === undefined || settings.token !== sessionToken) hub.connect({ force: true });
    });
    watchForLaunchTab();
    hub.connect();
  },
});
