// First: counting extension API calls must wrap them before anything else looks them up.
import '../tasks/count-api-calls';
import { browser } from 'wxt/browser';
import { defineBackground } from 'wxt/utils/define-background';
import { readBrowserStatus } from '../tasks/browser-status';
import { readStoredProblem } from '../hub/connection-problem';
import { coalesceCalls } from '../hub/coalesce-calls';
import { createConnectionStatus } from '../hub/connection-status';
import { readDonationSettings } from '../hub/donation-settings';
import { createDonorTasks } from '../tasks/donor-tasks';
import { createHubConnection } from '../hub/hub-connection';
import { cachedHubSettings, hubSettingsItem, readHubSettings, saveSessionToken } from '../hub/hub-settings';
import { taskJournal } from '../task-kit/task-journal';
import { removeTaskRules } from '../network/task-network-rules';
import { closeTaskWindow } from '../tabs/task-window';
import { createTaskRunner } from '../tasks/task-runner';
import { listenToChallengeNotifications } from '../tasks/challenge-handoff';
import { listChallengeRequests } from '../ui/challenge-requests';
import { createTaskTabPool } from '../tabs/task-tab-pool';
import { createUiRequestHandler } from '../hub/ui-request-handler';
import { createBrowserStateKeeper } from '../browser-state/browser-state-keeper';
import { guardTaskPopups } from '../tabs/popup-guard';
import { ensureStandingAddressRules } from '../network/standing-address-rules';
import { removeWebRtcFromPages } from '../network/no-webrtc-in-pages';
import { wipeBrowserState } from '../browser-state/wipe-browser-state';
import { createStorageKeysSeen } from '../browser-state/storage-keys-seen';
import { createStateWitness } from '../browser-state/state-witness';
import { watchStateTouches } from '../browser-state/watch-state-touches';

/**
 * Wakes a worker that Chrome stopped, so it reconnects (and reclaims its orphans) by itself: while
 * disconnected, and while connected too, since a worker stopped then (a crash, a forced stop) has
 * no socket left whose messages could start it again.
 */
const RECONNECT_ALARM = 'hub-reconnect';
/** How long after a task its browser's state is reported (with that of tasks ending meanwhile). */
const STATUS_AFTER_TASKS_MS = 1_000;

/**
 * Closes windows and removes network rules that a previous worker left behind (its tasks' and its
 * pooled tabs'), and returns the ids of the tasks among them.
 */
async function reclaimOrphans(): Promise<string[]> {
  const journal = await taskJournal.drain();
  await Promise.all(
    Object.values(journal).map(async ({ windowId, ruleIds }) => {
      if (windowId !== undefined) await closeTaskWindow(windowId);
      await removeTaskRules(ruleIds ?? []).catch(() => undefined);
    }),
  );
  return Object.keys(journal).filter(taskJournal.isTaskKey);
}

export default defineBackground({
  type: 'module',
  // Listeners are registered synchronously here, so that the events that wake a stopped worker find them.
  main() {
    const orphans = reclaimOrphans();
    /** The token this worker's connection holds now; storing it is no reason to reconnect. */
    let sessionToken: string | undefined;
    /** Its browser node is shutting down: no new tasks (see tabhiveNode below). */
    let draining = false;
    // Warm tabs only in a launched browser: a donated one is a person's, where task windows close.
    const pool = createTaskTabPool({
      keepTabs: async () => (await cachedHubSettings())?.origin === 'launched',
    });
    const readStatus = () => readBrowserStatus(runner.count(), pool);
    const donorTasks = createDonorTasks({ reply: (message) => hub.send(message) });
    const connection = createConnectionStatus({ runningTasks: () => runner.count() });
    // A click on "a task for <team> needs you on <site>" brings that task's tab forward.
    listenToChallengeNotifications(async (taskId) =>
      (await listChallengeRequests()).find((request) => request.taskId === taskId),
    );
    // The state after tasks, unasked, so leaks show on the server without waiting for a heartbeat;
    // once per burst of finished tasks, since reading it is three calls into the browser.
    /**
     * The badge's running-task count, in a browser a person looks at: a launched browser has no
     * one to see it, and each refresh is several calls into the browser (storage, three badge
     * setters), more than a plain page's whole task.
     */
    const refreshTaskBadge = async () => {
      if ((await cachedHubSettings())?.origin !== 'launched') await connection.refreshBadge();
    };
    const reportAfterTasks = coalesceCalls(() => {
      void readStatus().then((status) => hub.send({ type: 'heartbeat', sentAt: Date.now(), status }));
      void refreshTaskBadge();
    }, STATUS_AFTER_TASKS_MS);
    // A launched browser changes hands between teams only after its state is wiped.
    // What documents stored under, for the wipe; launched browsers only (a person's is never wiped).
    const storageKeys = createStorageKeysSeen({
      recording: async () => (await cachedHubSettings())?.origin === 'launched',
    });
    // Whether a task's page met state the team's earlier work left (the server shares only captures
    // that did not); it starts watching at the first wipe, which only a launched browser does.
    const witness = createStateWitness({ listen: watchStateTouches });
    const state = createBrowserStateKeeper({
      async wipe() {
        witness.forget();
        await pool.retire();
        await wipeBrowserState(storageKeys);
      },
    });
    const runner = createTaskRunner({
      pool,
      state: witness.watchKeeper(state),
      reply: (message) => {
        hub.send(message);
        donorTasks.finished(message);
      },
      sendSession: (message) => hub.send(message),
      afterTask: reportAfterTasks,
    });
    const hub = createHubConnection({
      // A revoked pairing stays off until the person pairs again, across worker restarts too.
      readSettings: async () =>
        (await readStoredProblem())?.code === 'revoked' ? undefined : readHubSettings(),
      readDonation: async () => readDonationSettings(),
      async saveSessionToken(token) {
        sessionToken = token;
        await saveSessionToken(token);
      },
      takeLostTaskIds: async () => [...(await orphans), ...(await reclaimOrphans())],
      onWelcome: (welcome) => {
        pool.setMaxIdle(welcome.maxConcurrentTasks);
        // A draining browser that reconnected (to this instance or another) still takes nothing new.
        if (draining) hub.send({ type: 'drain' });
      },
      onTask: (task) =>
        void donorTasks.admit(task).then(async (admitted) => {
          if (admitted === undefined) return;
          if (admitted.launched) {
            // The policy for everything the browser loads, popups and service workers included,
            // and no WebRTC, whose connections no network rule sees.
            const ready = await Promise.all([
              ensureStandingAddressRules(task.spec.networkPolicy),
              removeWebRtcFromPages(),
            ]).then(
              () => true,
              (err: unknown) => {
                hub.send({
                  type: 'result',
                  taskId: task.taskId,
                  ok: false,
                  error: {
                    code: 'BROWSER_ERROR',
                    message: `could not guard the browser's network: ${String(err)}`,
                  },
                });
                return false;
              },
            );
            if (!ready) return;
          }
          // Only a launched browser is ever wiped: a donated one is a person's own, serving one team.
          runner.start(
            admitted.launched ? task : admitted.task,
            admitted.launched
              ? {
                  stateKey: task.stateKey,
                  ...(task.stateKey === undefined ? {} : { stateWitness: witness }),
                }
              : {
                  fenceDomains: admitted.allowedDomains,
                  ...(admitted.askOnChallenges
                    ? { askPerson: { team: admitted.team, onAsked: () => void connection.refreshBadge() } }
                    : {}),
                },
          );
          void refreshTaskBadge();
        }),
      onCancel: (message) => runner.cancel(message.taskId),
      onSessionCommand: (message) => runner.sessionCommand(message),
      onSessionEnd: (message) => runner.sessionEnd(message.taskId),
      onStateChange(state, detail, closeCode) {
        if (state !== 'open') runner.cancelAll();
        void connection.onHubState(state, detail, closeCode);
        console.warn(`tabhive: hub ${state}${detail ? ` (${detail})` : ''}`);
      },
      readStatus,
      extensionVersion: browser.runtime.getManifest().version,
      userAgent: navigator.userAgent,
    });

    /**
     * For the browser node that launched this browser (server/browsers/browser-node), which calls it over
     * the DevTools pipe only it holds: no page or other extension can reach a worker's globals.
     * `drain` makes the hub send no new task here; both return the tasks still running.
     */
    Object.assign(globalThis, {
      tabhiveNode: {
        drain() {
          draining = true;
          hub.send({ type: 'drain' });
          return runner.count();
        },
        runningTasks: () => runner.count(),
      },
    });

    guardTaskPopups({ isTaskTab: (tabId) => pool.isTaskTab(tabId) });
    const ui = createUiRequestHandler({ status: connection, hub });
    browser.runtime.onMessage.addListener((message, sender) => ui.listener(message, sender));

    // 30 s is the shortest period Chrome allows (since 120).
    void browser.alarms.create(RECONNECT_ALARM, { periodInMinutes: 0.5 });
    browser.alarms.onAlarm.addListener((alarm) => {
      if (alarm.name === RECONNECT_ALARM) hub.connect();
    });
    // A person paired or unpaired this browser (launched browsers ignore this item altogether).
    hubSettingsItem.watch(async () => {
      const settings = await readHubSettings();
      if (settings === undefined || settings.token !== sessionToken) hub.connect({ force: true });
    });
    void connection.refreshBadge();
    hub.connect();
  },
});
