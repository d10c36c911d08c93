import { MongoClient, type CommandStartedEvent, type Db, type MongoClientOptions } from 'mongodb';
import type { Log } from '../../log';
import { StoreUnavailableError } from '../database';

export interface MongoConnectionOptions {
  url: string;
  databaseName: string;
  log: Log;
  serverSelectionTimeoutMs: number;
  /** Sees every command the driver sends (tests assert on write concerns with it). */
  onCommandStarted?: (commandName: string, command: Readonly<Record<string, unknown>>) => void;
}

export interface MongoSession {
  db: Db;
  /**
   * FerretDB 1.x applies `update` and `findAndModify` as a read followed by a write, without
   * isolation: measured here, 50 concurrent claimers over 20 tasks won 96 claims. Writes from
   * this process must then go one at a time per collection (and only one Tabhive instance may
   * use that server). MongoDB itself needs no such thing.
   */
  serialiseWrites: boolean;
}

export interface MongoConnection {
  /** Host list without credentials, for messages and logs. */
  readonly where: string;
  /** A connected database handle; rejects while the server cannot be reached. */
  session(): Promise<MongoSession>;
  close(): Promise<void>;
}

/**
 * Holds one MongoClient and replaces it when connecting fails. Once a client has connected, the
 * driver's monitors reconnect by themselves after an outage. A client whose *first* connect failed
 * is different: driver 7 closes its topology for good (every later operation throws "Topology is
 * closed"), so a server started before its database would never recover. Hence a fresh client
 * per failed attempt, created lazily by the next operation.
 */
export function createMongoConnection(options: MongoConnectionOptions): MongoConnection {
  const { url, databaseName, log, serverSelectionTimeoutMs, onCommandStarted } = options;
  const clientOptions: MongoClientOptions = {
    serverSelectionTimeoutMS: serverSelectionTimeoutMs,
    // A refused or black-holed connection fails within the same bound as server selection.
    connectTimeoutMS: serverSelectionTimeoutMs,
    // Acknowledged by a majority so that a failover cannot roll back a claim or a charge
    // (docs/running-at-scale.md#leases-and-durable-writes); standalone servers and FerretDB accept it as w:1.
    writeConcern: { w: 'majority' },
    // Undefined fields are absent, as in the embedded store, instead of being stored as null.
    ignoreUndefined: true,
    monitorCommands: onCommandStarted !== undefined,
  };
  // Parses the URL now: a malformed MONGODB_URL is a configuration error, not an outage.
  let client: MongoClient | undefined = newClient();
  let connecting: Promise<MongoSession> | undefined;
  let closed = false;
  let reachable: boolean | undefined;
  const where = client.options.hosts.map(String).join(',');

  function newClient(): MongoClient {
    const created = new MongoClient(url, clientOptions);
    if (onCommandStarted) {
      created.on('commandStarted', (event: CommandStartedEvent) =>
        onCommandStarted(event.commandName, event.command),
      );
    }
    // Log transitions only, not every failed heartbeat.
    created.on('serverHeartbeatFailed', (event) => setReachable(false, event.failure.message));
    created.on('serverHeartbeatSucceeded', () => setReachable(true));
    return created;
  }

  function setReachable(now: boolean, reason?: string): void {
    if (reachable === now) return;
    const before = reachable;
    reachable = now;
    if (!now)
      log.warn('MongoDB unreachable; storage requests fail with 503 until it is back', { where, reason });
    else if (before === false) log.info('MongoDB reachable again', { where });
  }

  function connect(): Promise<MongoSession> {
    const attempt = client ?? newClient();
    client = attempt;
    // One chain, so that a failure after connecting (buildInfo) also discards this client.
    const pending = attempt
      .connect()
      .then(async () => {
        setReachable(true);
        const db = attempt.db(databaseName);
        const info = await db.admin().command({ buildInfo: 1 });
        const ferretDb = typeof info.ferretdbVersion === 'string' ? info.ferretdbVersion : undefined;
        const serialiseWrites = ferretDb !== undefined && ferretDb.startsWith('v1.');
        if (serialiseWrites) {
          log.warn(
            'FerretDB 1.x does not isolate conditional updates; writes are serialised in this process, run only one instance against it',
            { where, version: ferretDb },
          );
        }
        return { db, serialiseWrites };
      })
      .catch(async (error: unknown) => {
        if (connecting === pending) connecting = undefined;
        if (client === attempt) client = undefined;
        setReachable(false, error instanceof Error ? error.message : String(error));
        await attempt.close().catch(() => undefined);
        throw error;
      });
    connecting = pending;
    return pending;
  }

  return {
    where,
    async session() {
      if (closed) throw new StoreUnavailableError('the MongoDB connection is closed');
      return connecting ?? connect();
    },
    async close() {
      closed = true;
      const last = client;
      client = undefined;
      connecting = undefined;
      await last?.close();
    },
  };
}
