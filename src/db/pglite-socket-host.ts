import { unlinkSync } from "node:fs";
import type { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { SessionGate } from "./session-gate.js";
import { SOCKET_PORT, type SharedEndpoint, removeEndpoint, socketPathFor, writeEndpoint } from "./shared-endpoint.js";
import type { PGliteLike } from "./pglite-database.js";

/** Connections the socket serves at once, over every process of the folder (each pools several). */
const MAX_CONNECTIONS = 256;
/** ReadyForQuery, length 5, status `I` (idle, no transaction open): the session is free again. */
const READY_IDLE = [0x5a, 0, 0, 0, 5, 0x49];
const SYNC = new Uint8Array([0x53, 0, 0, 0, 4]);

/**
 * The owner's side of a shared embedded data folder: serves its PGlite to the folder's other
 * processes on a local socket (`@electric-sql/pglite-socket`), and keeps the one PGlite session
 * consistent between them and the owner's own queries with a {@link SessionGate}.
 *
 * pglite-socket queues messages from its connections one at a time, and keeps a connection whose
 * transaction is open ahead of the others; but its check is PGlite's transaction flag, which is
 * false between an extended-protocol Parse and its Sync, and it does not see the owner's own
 * queries at all (they would run inside a client's open transaction, and a client's statement
 * inside the owner's). So the server is handed a view of PGlite that takes the gate at a
 * connection's first message and hands it on only when PGlite answers ReadyForQuery idle, and
 * reports "in a transaction" in between, which makes the queue wait for that connection.
 */
export class PgliteSocketHost {
  readonly gate = new SessionGate();
  private server: PGLiteSocketServer | undefined;
  private view: ReturnType<typeof sessionView> | undefined;
  private socketPath: string | undefined;
  private stopped = false;

  constructor(
    private readonly pglite: PGlite,
    private readonly dataDir: string,
    private readonly schema: string,
  ) {}

  /** The PGlite the owner's own code uses: every call waits for the session. */
  guarded(): PGliteLike {
    const { pglite, gate } = this;
    return {
      query: ((sql: string, params?: unknown[], options?: unknown) => gate.run(() => pglite.query(sql, params, options as never))) as PGlite["query"],
      exec: ((sql: string, options?: unknown) => gate.run(() => pglite.exec(sql, options as never))) as PGlite["exec"],
      transaction: ((fn: never) => gate.run(() => pglite.transaction(fn))) as PGlite["transaction"],
      dumpDataDir: ((compression?: never) => gate.run(() => pglite.dumpDataDir(compression))) as PGlite["dumpDataDir"],
      close: async () => {
        await this.stop();
        await pglite.close();
      },
      get closed() {
        return pglite.closed;
      },
    };
  }

  /** Listen on the folder's socket (a stale one left by a dead owner is replaced) and publish it. */
  async start(): Promise<SharedEndpoint> {
    if (this.server) throw new Error("already serving");
    const socketPath = socketPathFor(this.dataDir);
    if (socketPath) unlinkQuiet(socketPath); // we hold the folder's lock: any socket file is stale
    this.view = sessionView(this.pglite, this.gate);
    const server = new PGLiteSocketServer({
      db: this.view as unknown as PGlite,
      ...(socketPath ? { path: socketPath } : { host: "127.0.0.1", port: 0 }),
      maxConnections: MAX_CONNECTIONS,
    });
    await server.start();
    this.server = server;
    this.socketPath = socketPath;
    const endpoint: SharedEndpoint = socketPath
      ? { pid: process.pid, schema: this.schema, socketDir: this.dataDir, port: SOCKET_PORT }
      : { pid: process.pid, schema: this.schema, host: "127.0.0.1", port: Number(server.getServerConn().split(":").pop()) };
    writeEndpoint(this.dataDir, endpoint);
    return endpoint;
  }

  /** Stop serving: clients' connections close (an open transaction of theirs rolls back). */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (!this.server) return;
    removeEndpoint(this.dataDir);
    this.view?.closing();
    await this.server.stop();
    // A client that held the session is rolled back as its connection detaches; wait for it.
    await this.gate.run(async () => undefined);
    if (this.socketPath) unlinkQuiet(this.socketPath);
  }
}

/** The part of PGlite pglite-socket's queue uses, with the session held per exchange. */
function sessionView(pglite: PGlite, gate: SessionGate) {
  let release: (() => void) | undefined;
  let tail: number[] = [];
  let closing = false;
  const handOn = () => {
    const r = release;
    release = undefined;
    r?.();
  };
  const reset = async () => {
    try {
      // End an extended-protocol exchange left half-sent, then the transaction.
      await pglite.runExclusive(() => pglite.execProtocolRawStream(SYNC, { onRawData: () => undefined }));
      if (pglite.isInTransaction()) await pglite.exec("ROLLBACK");
    } finally {
      handOn();
    }
  };
  return {
    waitReady: pglite.waitReady,
    isInTransaction: () => release !== undefined,
    async runExclusive<T>(fn: () => Promise<T>): Promise<T> {
      release ??= await gate.acquire();
      tail = [];
      try {
        return await pglite.runExclusive(fn);
      } finally {
        if (tail.length === READY_IDLE.length && tail.every((b, i) => b === READY_IDLE[i])) handOn();
        else if (closing) await reset(); // its connection is being closed: never keep the session
      }
    },
    execProtocolRawStream(message: Uint8Array, options: { onRawData: (data: Uint8Array) => void }) {
      return pglite.execProtocolRawStream(message, {
        ...options,
        onRawData: (data: Uint8Array) => {
          tail = [...tail, ...data.subarray(Math.max(0, data.length - READY_IDLE.length))].slice(-READY_IDLE.length);
          options.onRawData(data);
        },
      });
    },
    /** Called with ROLLBACK when a connection that holds the session goes away. */
    exec: (_sql: string): Promise<void> => reset(),
    /** The server is stopping: a connection holding the session gives it up now. */
    closing(): void {
      closing = true;
    },
  };
}

function unlinkQuiet(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // not there
  }
}
