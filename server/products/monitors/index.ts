/** Monitors: scheduled checks of pages or searches that report what changed. */
export type { MonitorService } from './create-monitor-service';
export { createMonitors } from './create-monitors';
