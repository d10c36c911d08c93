import type { UiStatus } from '../ui/ui-messages';

/** The connection state in a few words, as the popup's header and the options page show it. */
export function connectionLabel(status: Pick<UiStatus, 'state' | 'runningTasks' | 'origin'>): string {
  switch (status.state) {
    case 'unpaired':
      return 'Not paired';
    case 'connecting':
      return 'Connecting…';
    case 'disconnected':
      return 'Disconnected';
    case 'idle':
      return status.origin === 'launched' ? 'Connected (server pool)' : 'Connected';
    case 'working':
      return `Connected, running ${status.runningTasks} ${status.runningTasks === 1 ? 'task' : 'tasks'}`;
  }
}
