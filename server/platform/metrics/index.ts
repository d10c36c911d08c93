/**
 * The instance's Prometheus registry (its page and cache counters also tallied by team), the
 * database's instruments, and figures over time in memory (the console overview's charts).
 */
export { createTabhiveMetrics } from './create-tabhive-metrics';
export type { TabhiveMetrics } from './create-tabhive-metrics';
export { instrumentDatabase } from './instrument-database';
export { registerStoreGauges } from './store-gauges';
export { createFigureHistory, createRing } from './figure-history';
export type { FigureHistory, FigureSample } from './figure-history';
export type { CounterValue, TeamTallies } from './team-tally';
