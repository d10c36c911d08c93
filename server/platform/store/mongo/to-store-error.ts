import {
  MongoError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb';
import { DuplicateKeyError, StoreUnavailableError } from '../database';

/**
 * Server error codes that mean "this node cannot serve you right now" rather than "your request
 * is wrong": the codes the driver specs list as retryable (shutdown, elections, stepdowns, network
 * trouble on the server's side) plus write-concern timeouts, where the write may or may not have
 * happened and the caller has to retry idempotently anyway.
 */
const UNAVAILABLE_CODES = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  64, // WriteConcernFailed (wtimeout)
  89, // NetworkTimeout
  91, // ShutdownInProgress
  189, // PrimarySteppedDown
  262, // ExceededTimeLimit
  9001, // SocketException
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

/** Driver errors not exported as classes: pool and server objects closed under a running operation. */
const UNAVAILABLE_NAMES = new Set([
  'MongoWaitQueueTimeoutError',
  'MongoPoolClosedError',
  'MongoServerClosedError',
  'MongoClientClosedError',
]);

/** Labels the driver attaches to errors worth retrying later (pool cleared, overloaded, …). */
const UNAVAILABLE_LABELS = [
  'RetryableWriteError',
  'SystemOverloadedError',
  'ResetPool',
  'PoolRequestedRetry',
];

/**
 * Translates a driver error into the port's errors: duplicate keys become DuplicateKeyError,
 * anything that says the server cannot be reached or cannot serve right now becomes
 * StoreUnavailableError (the API answers 503 and the caller retries), the rest passes unchanged.
 */
export function toStoreError(error: unknown, collection: string, where: string): unknown {
  if (!(error instanceof MongoError)) return error;
  if (isDuplicateKey(error.code, error.message)) {
    return withCause(new DuplicateKeyError(collection, error.message), error);
  }
  if (isUnavailable(error)) {
    return withCause(new StoreUnavailableError(`MongoDB at ${where}: ${error.message}`), error);
  }
  return error;
}

/**
 * Whether a server error (or one write error of a bulk write) is a unique index refusing a key.
 * FerretDB 1.x reports a unique index refusing an update or an index build as InternalError (1)
 * carrying its backend's message (SQLite 2067 or PostgreSQL 23505) instead of 11000.
 */
export function isDuplicateKey(code: unknown, message: string | undefined): boolean {
  return (
    code === 11000 ||
    code === 11001 ||
    (code === 1 &&
      /UNIQUE constraint failed|duplicate key value violates unique constraint/.test(message ?? ''))
  );
}

function isUnavailable(error: MongoError): boolean {
  if (
    error instanceof MongoNetworkError ||
    error instanceof MongoServerSelectionError ||
    error instanceof MongoNotConnectedError ||
    error instanceof MongoTopologyClosedError ||
    error instanceof MongoOperationTimeoutError
  ) {
    return true;
  }
  if (UNAVAILABLE_NAMES.has(error.name)) return true;
  if (typeof error.code === 'number' && UNAVAILABLE_CODES.has(error.code)) return true;
  return UNAVAILABLE_LABELS.some((label) => error.hasErrorLabel(label));
}

function withCause<E extends Error>(error: E, cause: unknown): E {
  error.cause = cause;
  return error;
}
