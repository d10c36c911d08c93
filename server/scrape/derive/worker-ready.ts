/**
 * What a derivation worker sends once its code is loaded (seconds on a busy machine): the pool
 * gives it jobs from then on, so that loading never counts against a job's time limit.
 */
export const WORKER_READY = 'ready';
