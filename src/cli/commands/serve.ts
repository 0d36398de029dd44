import type { CliCommand } from "../cli-command.js";
import { parseCommandArgs } from "../common-options.js";
import { resolveConfig } from "../../config.js";
import { openDatabase } from "../../db/open.js";
import { redactUrl } from "../../db/database-url.js";
import { createEmbeddings } from "../../embeddings/create-embeddings.js";
import { MemoryRepository } from "../../store/memory-store.js";
import { ProfileStore } from "../../profile/profile-store.js";
import { RuleStore } from "../../procedural/rule-store.js";
import { MemorySettingsStore } from "../../controls/settings-store.js";
import { MemoryControls } from "../../controls/memory-controls.js";
import { RetentionSweep } from "../../retention/retention-sweep.js";
import { createMemoryServer, DEFAULT_HOST, DEFAULT_PORT } from "../../server/memory-server.js";
import { devUserRefusal, readServerOptions, SERVER_OPTIONS } from "../server-options.js";
import { LOOPBACK_HOSTS } from "../loopback.js";
import { waitForStop } from "../wait-for-stop.js";
import { DEFAULT_TENANT_ID } from "../../core/scope.js";
import { countOf } from "../../core/plural.js";
import { RECOMMENDED_TOKEN_CHARS, TOKEN_ENV_VARS, TokenTable } from "../../server/authentication.js";

const HELP = `usage: langgraph-memory serve [--port N] [--host ADDR] [--tokens-file FILE] [--dev-user [TENANT:]USER]
                              [--body-limit BYTES] [--embeddings SPEC] [--no-viewer] [--log]
                              [--database-url URL] [--schema NAME]

The HTTP API (docs/http-api.md) and the memory viewer page (docs/viewer.md) on one server, until
SIGINT/SIGTERM. Every request acts for the one user its bearer token maps to.

  --port N               default ${DEFAULT_PORT} (0: any free port; the URL is printed)
  --host ADDR            default ${DEFAULT_HOST}; anything else exposes the server beyond this machine
                         (put it behind TLS)
  --tokens-file FILE     tokens as JSON {"<token>": {"tenantId": "acme", "userId": "alice"}, …};
                         or ${TOKEN_ENV_VARS.tokensFile}=FILE, or the JSON itself in ${TOKEN_ENV_VARS.tokens}
  --dev-user [T:]U       local development: print a one-time sign-in link for user U of tenant T
                         (default tenant "${DEFAULT_TENANT_ID}", as every command); only on a loopback
                         host; press Enter for a new link. Needs no tokens.
  --body-limit BYTES     largest request body (default 65536)
  --embeddings SPEC      must match what the store was written with (default EMBEDDINGS or "local")
  --no-viewer            API only
  --log                  request log on stdout (paths only, never query strings)

Without a token configuration and without --dev-user the server refuses to start.`;

export const command: CliCommand = {
  summary: "serve the HTTP API and the memory viewer page",
  async run(argv) {
    const { values } = parseCommandArgs(argv, {
      ...SERVER_OPTIONS,
      "body-limit": { type: "string" },
      log: { type: "boolean" },
    });
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const listen = readServerOptions(values, { port: DEFAULT_PORT, host: DEFAULT_HOST });
    const { port, host, devUser } = listen;
    const bodyLimit = values["body-limit"] === undefined ? undefined : Number(values["body-limit"]);
    const refusal = devUserRefusal(listen, "; configure tokens instead");
    if (refusal) {
      console.error(refusal);
      return 2;
    }
    const tokens = TokenTable.fromConfig({ file: values["tokens-file"] });
    if (!tokens && !devUser) {
      console.error(
        [
          "refusing to start: no access tokens are configured, so nobody could use the server.",
          `Set ${TOKEN_ENV_VARS.tokens}='{"<token>":{"tenantId":"acme","userId":"alice"}}' (or ${TOKEN_ENV_VARS.tokensFile} / --tokens-file FILE),`,
          "or for local development run with --dev-user USER (or --dev-user TENANT:USER).",
        ].join("\n"),
      );
      return 2;
    }
    if (!LOOPBACK_HOSTS.has(host)) {
      console.error(`warning: listening on ${host}, beyond this machine: bearer tokens travel in clear over plain HTTP — put the server behind TLS (a reverse proxy)`);
    }
    if (tokens && tokens.weakTokens > 0) {
      console.error(`warning: ${countOf(tokens.weakTokens, "configured token is", "configured tokens are")} shorter than ${RECOMMENDED_TOKEN_CHARS} characters and could be guessed; use long random tokens (e.g. openssl rand -base64 32)`);
    }

    const config = resolveConfig({ databaseUrl: values["database-url"], schema: values.schema, embeddings: values.embeddings });
    const embeddings = await createEmbeddings(config.embeddings);
    const db = await openDatabase(config.databaseUrl, { schema: config.schema, dataDir: config.dataDir, poolMax: config.poolMax });
    let server: Awaited<ReturnType<typeof createMemoryServer>> | undefined;
    try {
      const store = new MemoryRepository(db, { embeddings, retrieval: config.retrieval, writePolicy: config.writePolicy });
      const controls = new MemoryControls(db, { store, profiles: new ProfileStore(db), rules: new RuleStore(db), settings: new MemorySettingsStore(db) });
      const retention = new RetentionSweep(db, { controls, retention: config.retention, episodeTtlDays: config.writePolicy.episodeTtlDays });
      server = await createMemoryServer({
        memory: { controls, retention },
        tokens: tokens ?? undefined,
        viewer: !values["no-viewer"],
        bodyLimit,
        logger: Boolean(values.log),
        onError: (err, request) => console.error(`[${new Date().toISOString()}] request ${request.id} (${request.method} ${request.url.split("?")[0]}) failed:`, err),
      });
      const url = await server.listen({ port, host });
      const where = config.databaseUrl ? redactUrl(config.databaseUrl) : `embedded database in ${config.dataDir}`;
      console.log(`langgraph-memory: API${values["no-viewer"] ? "" : " and memory viewer"} on ${url} (${where})`);
      if (tokens) console.log(`${countOf(tokens.size, "access token")} configured`);
      const printLink = () => {
        if (!devUser || !server) return;
        const { code, expiresAt } = server.sessions.issueLoginCode(devUser);
        console.log(`sign in as ${devUser.tenantId}/${devUser.userId}: ${url}#login=${code}  (one-time link, valid until ${expiresAt.toISOString().slice(11, 16)} UTC)`);
      };
      printLink();
      await waitForStop(devUser && process.stdin.isTTY ? printLink : undefined);
      return 0;
    } finally {
      await server?.close().catch(() => undefined);
      await db.close();
    }
  },
};
