import { isMemoryError } from "../errors.js";
import { CLI_INVOCATION } from "../core/cli-name.js";
import { DEFAULT_TENANT_ID } from "../core/scope.js";
import type { CliCommand } from "./cli-command.js";

/** A command of a command table: its one-line summary for the usage, and its module, loaded only to run it. */
export interface LazyCommand {
  summary: string;
  load: () => Promise<CliCommand>;
}

/** Commands by name: a {@link LazyCommand}, or only a loader (the usage then loads it for its summary). */
export type CommandTable = Record<string, LazyCommand | (() => Promise<CliCommand>)>;

// Lazy imports keep `langgraph-memory --help` fast and each command's dependencies out of the
// others, so the summaries are here too (test/unit/cli-main.test.ts checks they match the modules').
const COMMANDS: Record<string, LazyCommand> = {
  migrate: { summary: "apply pending database migrations", load: async () => (await import("./commands/migrate.js")).command },
  bench: { summary: "run a benchmark (side by side with the official implementation or a floor)", load: async () => (await import("./commands/bench.js")).command },
  reembed: { summary: "re-embed all memories with the configured embedder (after changing model or dimension)", load: async () => (await import("./commands/reembed.js")).command },
  worker: { summary: "run background memory-extraction workers (or --drain the queue once)", load: async () => (await import("./commands/worker.js")).command },
  "import-jsonl": { summary: "import a memory-skill JSONL file into the long-term store (through the write policy)", load: async () => (await import("./commands/import-jsonl.js")).command },
  demo: { summary: "a scripted multi-session conversation showing what memory writes, supersedes, retrieves and injects", load: async () => (await import("./commands/demo.js")).command },
  chat: { summary: "an interactive chat with the memory agent (/memories, /forget ID, /summary, /exit)", load: async () => (await import("./commands/chat.js")).command },
  serve: { summary: "serve the HTTP API and the memory viewer page", load: async () => (await import("./commands/serve.js")).command },
  dev: { summary: "serve the LangGraph API (Studio, the SDK) on langgraph-memory's checkpointer and store, with the viewer", load: async () => (await import("./commands/dev.js")).command },
  memories: { summary: "list, show, edit, delete, export or forget all memories of one user; opt them out or in", load: async () => (await import("./commands/memories.js")).command },
  profile: { summary: "show or change one user's profile", load: async () => (await import("./commands/profile.js")).command },
  rules: { summary: "list, approve or revoke one user's procedural rules", load: async () => (await import("./commands/rules.js")).command },
  gc: { summary: "run the retention sweep (expire, set aside, decay, purge opted-out users) — for cron", load: async () => (await import("./commands/gc.js")).command },
  status: { summary: "database, schema version, pgvector, job queue and worker heartbeat, read-only", load: async () => (await import("./commands/status.js")).command },
  // From a checkout only: the package ships no evals (CHECKOUT_REQUIRED names the command to run).
  eval: {
    summary: "run the cross-session memory evals (scenarios, metrics, JSON + HTML report, CI gate)",
    load: async () => (await import("./checkout-commands.js")).loadCheckoutCommand("eval", "command", "langgraph-memory eval"),
  },
};

/** Options of {@link runCommands}. */
export interface RunCommandsOptions {
  /** The name in the usage line (e.g. "langgraph-memory"). */
  program: string;
  /** How a person runs it, in hints (default `program`). */
  invocation?: string;
  /** Lines after the command list (what every command shares). */
  notes?: readonly string[];
}

async function usageText(commands: CommandTable, options: RunCommandsOptions): Promise<string> {
  const names = Object.keys(commands).sort();
  const width = Math.max(...names.map((n) => n.length));
  const summaries = await Promise.all(names.map(async (n) => summaryOf(commands[n])));
  return [
    `usage: ${options.program} <command> [options]`,
    "",
    "commands:",
    ...names.map((n, i) => `  ${n.padEnd(width)}  ${summaries[i]}`),
    "",
    `Run \`${options.invocation ?? options.program} <command> --help\` (or \`help <command>\`) for a command's options.`,
    ...(options.notes ?? []),
  ].join("\n");
}

async function summaryOf(entry: CommandTable[string]): Promise<string> {
  return typeof entry === "function" ? (await entry()).summary : entry.summary;
}

async function loadCommand(entry: CommandTable[string]): Promise<CliCommand> {
  return typeof entry === "function" ? entry() : entry.load();
}

/** Entry point of the `langgraph-memory` binary. Returns the process exit code. */
export function main(argv: string[]): Promise<number> {
  return runCommands(COMMANDS, argv, {
    program: "langgraph-memory",
    invocation: CLI_INVOCATION,
    notes: [
      "Database: --database-url URL or DATABASE_URL (postgres://…, pglite:<dir>, memory://); default: embedded in ./.langgraph-memory/",
      `User: --user U [--tenant T]; the tenant is "${DEFAULT_TENANT_ID}" unless named, in every command.`,
    ],
  });
}

/**
 * Run one command of `commands` by its name (the first argument): the usage (one line per
 * command) on none, `--help`/`help`, or an unknown one; `help <command>` for that command's own
 * help; a MemoryError or a bad option as one line and exit code 1 or 2. `options.program` names
 * the command line in messages (the eval harness has its own, `evals/cli.ts`), or pass the
 * program name alone.
 */
export async function runCommands(commands: CommandTable, argv: string[], options: RunCommandsOptions | string): Promise<number> {
  const opts = typeof options === "string" ? { program: options } : options;
  const invocation = opts.invocation ?? opts.program;
  const usage = () => usageText(commands, opts);
  let [name, ...rest] = argv;
  if (name === "help" && rest[0] !== undefined && Object.hasOwn(commands, rest[0])) [name, rest] = [rest[0], ["--help"]];
  if (!name || name === "--help" || name === "-h" || name === "help") {
    console.log(await usage());
    return name ? 0 : 2;
  }
  if (!Object.hasOwn(commands, name)) {
    console.error(`unknown command "${name}"\n\n${await usage()}`);
    return 2;
  }
  const command = await loadCommand(commands[name]);
  try {
    return await command.run(rest);
  } catch (err) {
    if (isMemoryError(err)) {
      console.error(`error ${err.code}: ${err.message}`);
      return 1;
    }
    // Duck-typed: parseArgs' errors come from Node's realm, where `instanceof Error` can fail (jest).
    const code = (err as { code?: unknown } | null)?.code;
    if (typeof code === "string" && code.startsWith("ERR_PARSE_ARGS")) {
      console.error(`${(err as Error).message}\nRun \`${invocation} ${name} --help\`.`);
      return 2;
    }
    throw err;
  }
}
