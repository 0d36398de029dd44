/** The HTTP API and the memory viewer (docs/http-api.md, docs/viewer.md). */
export { createMemoryServer, DEFAULT_PORT, DEFAULT_HOST, type MemoryServer, type MemoryServerOptions } from "./memory-server.js";
export { memoryApi, DEFAULT_BODY_LIMIT, type MemoryApiOptions } from "./memory-api.js";
export {
  TokenTable,
  bearerToken,
  bearerTokenAuthenticator,
  TOKEN_ENV_VARS,
  RECOMMENDED_TOKEN_CHARS,
  type Authenticate,
  type AuthenticatedUser,
} from "./authentication.js";
export { ViewerSessions, type ViewerSessionsOptions } from "./viewer-sessions.js";
export type { ErrorBody } from "./http-errors.js";
export type { ListedMemory } from "./memory-listing.js";
export { VIEWER_CSP } from "./security-headers.js";
