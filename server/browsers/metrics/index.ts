/** Gauges and timings of the browsers and their tasks, for /metrics. */
export { registerHubGauges } from './hub-gauges';
export { timeBrowserTasks } from './time-browser-tasks';
