import { existsSync } from "node:fs";
import type { CliCommand } from "../cli-command.js";
import { parseCommandArgs } from "../common-options.js";
import { LOOPBACK_HOSTS } from "../loopback.js";
import { devUserRefusal, readServerOptions, SERVER_OPTIONS } from "../server-options.js";
import { waitForStop } from "../wait-for-stop.js";
import { redactUrl } from "../../db/database-url.js";
import { ErrorCodes, MemoryError } from "../../errors.js";
import { DEFAULT_TENANT_ID } from "../../core/scope.js";
import { countOf } from "../../core/plural.js";
import { TOKEN_ENV_VARS, TokenTable } from "../../server/authentication.js";
import { closeSharedMemory, sharedMemory } from "../../graph/memory-from-env.js";
import { parseGraphOption, readLangGraphJson, type GraphSpec } from "../../studio/graph-specs.js";
import { loadGraphs } from "../../studio/load-graphs.js";
import { createMemoryDevServer, DEV_DEFAULT_PORT, STUDIO_ORIGINS } from "../../studio/memory-dev-server.js";

const HELP = `usage: langgraph-memory dev [--config FILE | --graph [ID=]PATH[:EXPORT] …] [--port N] [--host ADDR]
                            [--allow-origin ORIGIN …] [--tokens-file FILE] [--dev-user [TENANT:]USER] [--no-viewer]
                            [--embeddings SPEC] [--database-url URL] [--schema NAME]

The LangGraph API (what LangGraph Studio and @langchain/langgraph-sdk talk to) on langgraph-memory's
own checkpointer and store — threads, state history and forks live in the memory database — and the
memory viewer and controls API under /memory/ on the same port, until SIGINT/SIGTERM. Needs
@langchain/langgraph-api (it comes with @langchain/langgraph-cli). See docs/deploy.md.

  --config FILE          langgraph.json to serve (default ./langgraph.json): its "graphs" and "env"
  --graph [ID=]PATH[:EXPORT]
                         serve this graph instead (repeatable); ID defaults to the file's name,
                         EXPORT to the default export
  --port N               default ${DEV_DEFAULT_PORT} (0: any free port; the URL is printed)
  --host ADDR            default 127.0.0.1. The LangGraph API has no authentication (as the stock
                         dev server): on another address anyone who reaches it reads every thread
  --allow-origin ORIGIN  a browser origin allowed to call the LangGraph API (repeatable; default
                         Studio's: ${STUDIO_ORIGINS.join(", ")})
  --tokens-file FILE     viewer/controls API tokens (or ${TOKEN_ENV_VARS.tokensFile} / ${TOKEN_ENV_VARS.tokens})
  --dev-user [T:]U       print a one-time viewer sign-in link for user U of tenant T (default
                         "${DEFAULT_TENANT_ID}"; loopback host only; press Enter for a new link)
  --no-viewer            no viewer page (the controls API stays under /memory/api/)
  --embeddings SPEC      must match what the store was written with (default EMBEDDINGS or "local")`;

export const command: CliCommand = {
  summary: "serve the LangGraph API (Studio, the SDK) on langgraph-memory's checkpointer and store, with the viewer",
  async run(argv) {
    const { values } = parseCommandArgs(argv, {
      ...SERVER_OPTIONS,
      config: { type: "string" },
      graph: { type: "string", multiple: true },
      "allow-origin": { type: "string", multiple: true },
    });
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const server = readServerOptions(values, { port: DEV_DEFAULT_PORT, host: "127.0.0.1" });
    const { port, host, devUser } = server;
    const refusal = devUserRefusal(server);
    if (refusal) {
      console.error(refusal);
      return 2;
    }
    if (values.graph && values.config) throw new MemoryError(ErrorCodes.INVALID_INPUT, "give --config or --graph, not both");

    let specs: GraphSpec[];
    if (values.graph) {
      specs = values.graph.map((g) => parseGraphOption(g));
    } else {
      const file = values.config ?? "langgraph.json";
      if (!values.config && !existsSync(file)) throw new MemoryError(ErrorCodes.CONFIG_INVALID, "no langgraph.json here: run in your project's folder, or pass --config FILE or --graph ./path/to/file.ts:export");
      const config = readLangGraphJson(file);
      applyEnv(config.env, config.envFile);
      specs = config.graphs;
    }
    if (!LOOPBACK_HOSTS.has(host)) console.error(`warning: listening on ${host}: the LangGraph API has no authentication — anyone who can reach it reads and writes every thread`);

    const tokens = TokenTable.fromConfig({ file: values["tokens-file"] });
    // The graphs' own memory (graph modules call sharedMemory): one database, opened once per process.
    const memory = await sharedMemory({ databaseUrl: values["database-url"], schema: values.schema, embeddings: values.embeddings });
    let dev: Awaited<ReturnType<typeof createMemoryDevServer>> | undefined;
    try {
      const graphs = await loadGraphs(specs);
      dev = await createMemoryDevServer({ memory, graphs, http: { tokens: tokens ?? undefined, viewer: !values["no-viewer"] }, allowOrigins: values["allow-origin"] });
      const url = await dev.listen({ port, host });
      const where = memory.config.databaseUrl ? redactUrl(memory.config.databaseUrl) : `embedded database in ${memory.config.dataDir}`;
      console.log(`langgraph-memory dev: LangGraph API on ${url} (graphs: ${[...graphs.keys()].join(", ")}; threads and memory in ${where})`);
      console.log(`  Studio: https://smith.langchain.com/studio/?baseUrl=${encodeURIComponent(url)}`);
      console.log(`  memory viewer and controls API: ${url}/memory/${tokens ? ` (${countOf(tokens.size, "access token")})` : ""}`);
      const printLink = () => {
        if (!devUser || !dev) return;
        console.log(`  sign in to the viewer as ${devUser.tenantId}/${devUser.userId}: ${url}${dev.loginPath(devUser)}  (one-time link)`);
      };
      printLink();
      await waitForStop(devUser && process.stdin.isTTY ? printLink : undefined);
      return 0;
    } finally {
      await dev?.close().catch(() => undefined);
      await closeSharedMemory();
    }
  },
};

/** langgraph.json's `env`, as the stock dev server applies it; variables already set win. */
function applyEnv(env: Record<string, string> | undefined, envFile: string | undefined): void {
  if (envFile && existsSync(envFile)) process.loadEnvFile(envFile);
  for (const [k, v] of Object.entries(env ?? {})) {
    if (process.env[k] === undefined) process.env[k] = v;
  }
}
