/** The instance's Prometheus registry and the database's instruments. */
export { createTabhiveMetrics } from './create-tabhive-metrics';
export type { TabhiveMetrics } from './create-tabhive-metrics';
export { instrumentDatabase } from './instrument-database';
export { registerStoreGauges } from './store-gauges';
