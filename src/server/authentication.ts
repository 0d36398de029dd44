/**
 * Who is asking: every API request is scoped to exactly one tenant + user by an authentication
 * hook. The app supplies its own (its sessions, JWTs, API gateway headers…); the default for local
 * use maps bearer tokens from configuration to one user each.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { ErrorCodes, MemoryError } from "../errors.js";

/** The user a request acts for. */
export interface AuthenticatedUser {
  tenantId: string;
  userId: string;
}

/**
 * The app's authentication hook: the tenant and user of this request, or null (→ 401). It must
 * not trust ids from the URL, query or body: the server never takes the scope from anywhere else.
 *
 * @example
 * const authenticate: Authenticate = async (request) => {
 *   const session = await mySessions.verify(request.headers.authorization);
 *   return session ? { tenantId: session.orgId, userId: session.userId } : null;
 * };
 */
export type Authenticate = (request: FastifyRequest) => AuthenticatedUser | null | undefined | Promise<AuthenticatedUser | null | undefined>;

/** Environment variables of the default token authentication. */
export const TOKEN_ENV_VARS = {
  /** JSON: `{"<token>": {"tenantId": "acme", "userId": "alice"}, …}` */
  tokens: "LANGGRAPH_MEMORY_TOKENS",
  /** Path of a file holding the same JSON. */
  tokensFile: "LANGGRAPH_MEMORY_TOKENS_FILE",
} as const;

/** Tokens shorter than this are accepted but flagged (`weakTokens`): they can be guessed. */
export const RECOMMENDED_TOKEN_CHARS = 16;

const ID = z.string().max(256).refine((s) => s.trim().length > 0 && !s.includes("\0"), "must be a non-empty string without NUL characters");
const UserSchema = z.strictObject({ tenantId: ID, userId: ID });
// Visible ASCII only: a token travels in an HTTP header.
const TokenSchema = z.string().regex(/^[\x21-\x7e]+$/, "must be visible ASCII characters without spaces").max(512);
const TokenMapSchema = z.record(TokenSchema, UserSchema);

/** Bearer tokens, each mapping to one tenant + user; stored as SHA-256 digests, never as text. */
export class TokenTable {
  private readonly byDigest = new Map<string, AuthenticatedUser>();
  /** How many configured tokens are shorter than {@link RECOMMENDED_TOKEN_CHARS}. */
  readonly weakTokens: number;

  constructor(tokens: Readonly<Record<string, AuthenticatedUser>>) {
    const parsed = TokenMapSchema.safeParse(tokens);
    if (!parsed.success) {
      // Name the problem and the position, never the token itself.
      const keys = Object.keys(tokens ?? {});
      const problems = parsed.error.issues.map((i) => {
        const index = typeof i.path[0] === "string" ? keys.indexOf(i.path[0]) : -1;
        const where = index >= 0 ? `token #${index + 1}${i.path.length > 1 ? `.${i.path.slice(1).join(".")}` : ""}` : "(tokens)";
        return `${where}: ${i.message}`;
      });
      throw new MemoryError(ErrorCodes.CONFIG_INVALID, `invalid token configuration — ${problems.join("; ")}; expected {"<token>": {"tenantId": "…", "userId": "…"}}`);
    }
    let weak = 0;
    for (const [token, user] of Object.entries(parsed.data)) {
      if (token.length < RECOMMENDED_TOKEN_CHARS) weak++;
      this.byDigest.set(digest(token), { tenantId: user.tenantId, userId: user.userId });
    }
    this.weakTokens = weak;
  }

  get size(): number {
    return this.byDigest.size;
  }

  /** The user of a token, or null. Looked up by digest, so lookup time says nothing about stored tokens. */
  lookup(token: string): AuthenticatedUser | null {
    const user = this.byDigest.get(digest(token));
    return user ? { ...user } : null;
  }

  /**
   * Parse the JSON form (`{"<token>": {"tenantId", "userId"}}`); CONFIG_INVALID names what is wrong.
   *
   * @example
   * const table = TokenTable.fromJson('{"tok-4f9c…":{"tenantId":"acme","userId":"alice"}}', "LANGGRAPH_MEMORY_TOKENS");
   */
  static fromJson(json: string, source: string): TokenTable {
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch {
      throw new MemoryError(ErrorCodes.CONFIG_INVALID, `${source} is not valid JSON; expected {"<token>": {"tenantId": "…", "userId": "…"}}`);
    }
    if (!value || typeof value !== "object" || Array.isArray(value)) {
      throw new MemoryError(ErrorCodes.CONFIG_INVALID, `${source} must be a JSON object {"<token>": {"tenantId": "…", "userId": "…"}}`);
    }
    try {
      return new TokenTable(value as Record<string, AuthenticatedUser>);
    } catch (err) {
      if (err instanceof MemoryError) throw new MemoryError(err.code, `${source}: ${err.message}`);
      throw err;
    }
  }

  /**
   * The configured tokens: a file (`file`, else `LANGGRAPH_MEMORY_TOKENS_FILE`), else
   * `LANGGRAPH_MEMORY_TOKENS`; null when none is configured.
   */
  static fromConfig(options: { file?: string; env?: NodeJS.ProcessEnv } = {}): TokenTable | null {
    const env = options.env ?? process.env;
    const file = options.file ?? (env[TOKEN_ENV_VARS.tokensFile] || undefined);
    if (file) {
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch (err) {
        throw new MemoryError(ErrorCodes.CONFIG_INVALID, `cannot read the token file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
      }
      return TokenTable.fromJson(text, `token file ${file}`);
    }
    const json = env[TOKEN_ENV_VARS.tokens];
    return json ? TokenTable.fromJson(json, TOKEN_ENV_VARS.tokens) : null;
  }
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(request: Pick<FastifyRequest, "headers">): string | null {
  const header = request.headers.authorization;
  if (typeof header !== "string") return null;
  const m = /^Bearer +([\x21-\x7e]{1,512}) *$/i.exec(header);
  return m ? m[1] : null;
}

/**
 * The default {@link Authenticate}: `Authorization: Bearer <token>` looked up in a token table.
 *
 * @example
 * createMemoryServer({ memory, authenticate: bearerTokenAuthenticator(new TokenTable({ "tok-4f9c…": { tenantId: "acme", userId: "alice" } })) });
 */
export function bearerTokenAuthenticator(tokens: TokenTable): Authenticate {
  return (request) => {
    const token = bearerToken(request);
    return token ? tokens.lookup(token) : null;
  };
}

/** Check what an app's hook returned: a user with non-empty ids, or null. Anything else is the app's bug. */
export function checkAuthenticatedUser(value: unknown): AuthenticatedUser | null {
  if (value === null || value === undefined) return null;
  const parsed = UserSchema.safeParse(value && typeof value === "object" ? { tenantId: (value as AuthenticatedUser).tenantId, userId: (value as AuthenticatedUser).userId } : value);
  if (!parsed.success) {
    throw new Error(`the authenticate hook must return { tenantId, userId } (non-empty strings) or null; it returned ${typeof value === "object" ? "an object without valid ids" : typeof value}`);
  }
  return parsed.data;
}

export function digest(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}
