/**
 * The options `serve` and `dev` share (where to listen, who may sign in, which embeddings), parsed
 * once so both commands check them the same way.
 */
import type { ParseArgsConfig } from "node:util";
import type { UserScope } from "../core/scope.js";
import { ErrorCodes, MemoryError } from "../errors.js";
import { LOOPBACK_HOSTS } from "./loopback.js";
import { parseUserSpec } from "./scope-options.js";

/** The server commands' shared options, for `parseCommandArgs` (each command adds its own). */
export const SERVER_OPTIONS = {
  port: { type: "string" },
  host: { type: "string" },
  "tokens-file": { type: "string" },
  "dev-user": { type: "string" },
  embeddings: { type: "string" },
  "no-viewer": { type: "boolean" },
} as const satisfies ParseArgsConfig["options"];

/** Where a server command listens and whom `--dev-user` signs in. */
export interface ServerOptions {
  port: number;
  host: string;
  /** `--dev-user [TENANT:]USER`, or null. */
  devUser: UserScope | null;
}

/**
 * `--port` (an integer from 0 to 65535, else INVALID_INPUT), `--host` and `--dev-user` (as every
 * command reads a user) with the command's defaults.
 *
 * @example
 * const { port, host, devUser } = readServerOptions(values, { port: 8123, host: "127.0.0.1" });
 */
export function readServerOptions(values: { port?: string; host?: string; "dev-user"?: string }, defaults: { port: number; host: string }): ServerOptions {
  const port = values.port === undefined ? defaults.port : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new MemoryError(ErrorCodes.INVALID_INPUT, "--port: an integer from 0 to 65535");
  const host = values.host ?? defaults.host;
  const devUser = values["dev-user"] === undefined ? null : parseUserSpec(values["dev-user"], "--dev-user");
  return { port, host, devUser };
}

/**
 * Why the server must not start with these options, or null: `--dev-user` signs anyone in who can
 * reach the server, so it runs only on a loopback host. `hint` is the command's advice appended.
 */
export function devUserRefusal(options: ServerOptions, hint = ""): string | null {
  if (!options.devUser || LOOPBACK_HOSTS.has(options.host)) return null;
  return `refusing to start: --dev-user signs anyone in who can reach the server, so it only runs on a loopback host (127.0.0.1, ::1), not ${options.host}${hint}`;
}
