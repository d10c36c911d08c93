/** Instances sharing one database: browser work relayed to the instance whose browsers can take it. */
export { createCluster } from './create-cluster';
