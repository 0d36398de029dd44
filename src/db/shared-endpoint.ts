import { readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Written by the process that owns an embedded data folder once it serves it to others. */
const ENDPOINT_FILE = "langgraph-memory.socket.json";
/** The socket file name `pg` derives from `host=<folder>` and `port=5432`. */
export const SOCKET_PORT = 5432;
export const SOCKET_FILE = `.s.PGSQL.${SOCKET_PORT}`;
/** Unix socket paths are limited to about 104 bytes (macOS) / 108 (Linux); longer ones use TCP. */
const MAX_SOCKET_PATH = 100;

/** Where the owner of a data folder serves it: a Unix socket in the folder, or a loopback port. */
export interface SharedEndpoint {
  /** The owner's process id (also in the folder's lock file). */
  pid: number;
  /** The schema the owner opened; every process of the folder uses the same one. */
  schema: string;
  /** The folder holding the socket file `.s.PGSQL.5432` (`pg`'s `host` for a Unix socket). */
  socketDir?: string;
  /** Loopback address and port, where a Unix socket cannot be used. */
  host?: string;
  port: number;
}

/** The Unix socket path for `dataDir`, or undefined where it must be TCP (Windows, long paths). */
export function socketPathFor(dataDir: string): string | undefined {
  const path = join(dataDir, SOCKET_FILE);
  if (process.platform === "win32" || Buffer.byteLength(path) > MAX_SOCKET_PATH) return undefined;
  return path;
}

export function readEndpoint(dataDir: string): SharedEndpoint | undefined {
  try {
    const value = JSON.parse(readFileSync(join(dataDir, ENDPOINT_FILE), "utf8")) as SharedEndpoint;
    return Number.isInteger(value.pid) && typeof value.schema === "string" && Number.isInteger(value.port) ? value : undefined;
  } catch {
    return undefined; // absent, or being replaced
  }
}

/** Written to a temp file and renamed into place, so readers never see half of it. */
export function writeEndpoint(dataDir: string, endpoint: SharedEndpoint): void {
  const path = join(dataDir, ENDPOINT_FILE);
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(endpoint));
  renameSync(temp, path);
}

/** Remove the endpoint file if it is still ours. */
export function removeEndpoint(dataDir: string): void {
  if (readEndpoint(dataDir)?.pid !== process.pid) return;
  try {
    unlinkSync(join(dataDir, ENDPOINT_FILE));
  } catch {
    // already gone
  }
}

/** A `pg` connection string for the endpoint. PGlite has one database and no passwords. */
export function endpointUrl(endpoint: SharedEndpoint): string {
  if (endpoint.socketDir) return `postgresql://postgres@localhost:${endpoint.port}/postgres?host=${encodeURIComponent(endpoint.socketDir)}`;
  return `postgresql://postgres@${endpoint.host ?? "127.0.0.1"}:${endpoint.port}/postgres`;
}
