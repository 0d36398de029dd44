import { isMemoryError } from "../errors.js";
import type { CliCommand } from "./cli-command.js";


// Lazy imports keep `langgraph-memory --help` fast and each command's dependencies out of the others.
const COMMANDS: Record<string, () => Promise<CliCommand>> = {
  migrate: async () => (await import("./commands/migrate.js")).command,
  bench: async () => (await import("./commands/bench.js")).command,
  reembed: async () => (await import("./commands/reembed.js")).command,
  worker: async () => (await import("./commands/worker.js")).command,
  "import-jsonl": async () => (await import("./commands/import-jsonl.js")).command,
  demo: async () => (await import("./commands/demo.js")).command,
  chat: async () => (await import("./commands/chat.js")).command,
  serve: async () => (await import("./commands/serve.js")).command,
  memories: async () => (await import("./commands/memories.js")).command,
  profile: async () => (await import("./commands/profile.js")).command,
  rules: async () => (await import("./commands/rules.js")).command,
  gc: async () => (await import("./commands/gc.js")).command,
  status: async () => (await import("./commands/status.js")).command,
  eval: async () => (await import("./checkout-commands.js")).loadCheckoutCommand("eval", "command", "langgraph-memory eval"),
};

function usageText(program: string, commands: Record<string, unknown>): string {
  const names = Object.keys(commands).sort();
  return [
    `usage: ${program} <command> [options]`,
    "",
    "commands:",
    ...names.map((n) => `  ${n}`),
    "",
    `Run \`${program} <command> --help\` for a command's options.`,
    "Database: --database-url URL or DATABASE_URL (postgres://…, pglite:<dir>, memory://); default: embedded in ./.langgraph-memory/",
  ].join("\n");
}

/** Entry point of the `langgraph-memory` binary. Returns the process exit code. */
export function main(argv: string[]): Promise<number> {
  return runCommands(COMMANDS, argv, "langgraph-memory");
}

/**
 * Run one command of `commands` by its name (the first argument): usage on none or an unknown
 * one, and a MemoryError or a bad option as one line and exit code 1 or 2. `program` names the
 * command line in messages (the eval harness has its own, `evals/cli.ts`).
 */
export async function runCommands(commands: Record<string, () => Promise<CliCommand>>, argv: string[], program: string): Promise<number> {
  const usage = () => usageText(program, commands);
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    console.log(usage());
    return name ? 0 : 2;
  }
  const load = commands[name];
  if (!load) {
    console.error(`unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  const command = await load();
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
      console.error(`${(err as Error).message}\nRun \`${program} ${name} --help\`.`);
      return 2;
    }
    throw err;
  }
}
