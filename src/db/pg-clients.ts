/**
 * Every `pg` Client and Pool the package creates comes from here, so that none can end the
 * process. A `pg` Client is an EventEmitter that emits 'error' when its connection breaks (a
 * server restart sends FATAL 57P01, then closes the socket) — also while it sits idle in an app's
 * hands or in the pool — and Node turns an 'error' event nobody listens to into an uncaught
 * exception. The pool only listens while a client is idle in it; a client checked out (a
 * transaction, the jobs LISTEN connection, one an app borrowed with `pool.connect()`) had a
 * listener only where each caller remembered to add one. Here the listener is attached when the
 * client is constructed and never removed, whoever holds the client and whether or not it was
 * released: the error itself still reaches the query or transaction that was running (as a
 * rejected promise, then the typed DB_UNAVAILABLE), and a broken client is dropped by the pool
 * when it is released.
 */
import pg from "pg";

// The failure reaches the caller through the query that was running; the event adds nothing.
const ignoreClientError = (): void => undefined;

/** A `pg.Client` with an 'error' listener for its whole life. */
export class GuardedPgClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on("error", ignoreClientError);
  }
}

/**
 * A standalone client (administrative one-offs: the demo's schema reset, benchmarks, tests).
 *
 * @example
 * const client = createPgClient(url);
 * await client.connect();
 * try { await client.query("SELECT 1"); } finally { await client.end(); }
 */
export function createPgClient(config: string | pg.ClientConfig): pg.Client {
  return new GuardedPgClient(config);
}

/**
 * A pool whose clients are all {@link GuardedPgClient}s, with a listener for the pool's own
 * 'error' (an idle client lost; the pool has already dropped it, the next checkout opens a fresh
 * connection).
 *
 * @example
 * const pool = createPgPool({ connectionString: url, max: 10 });
 */
export function createPgPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool({ ...config, Client: GuardedPgClient as unknown as new () => pg.ClientBase });
  pool.on("error", ignoreClientError);
  return pool;
}
