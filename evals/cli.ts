// The eval harness's command line, beside the published CLI (the package's dist/ holds no evals):
//   node --import tsx evals/cli.ts <eval|locomo|locomo-memory|sessions> [options]
// or through npm: `npm run eval -- …`, `npm run bench:locomo -- …`, `npm run bench:locomo-memory -- …`, `npm run bench:sessions -- …`.
import type { CliCommand } from "../src/cli/cli-command.js";
import { runCommands } from "../src/cli/main.js";

const COMMANDS: Record<string, () => Promise<CliCommand>> = {
  eval: async () => (await import("./cli/eval.js")).command,
  locomo: async () => (await import("./cli/locomo.js")).benchmark,
  "locomo-memory": async () => (await import("./cli/locomo-memory.js")).benchmark,
  sessions: async () => (await import("./cli/sessions.js")).benchmark,
};

runCommands(COMMANDS, process.argv.slice(2), "node --import tsx evals/cli.ts").then(
  (code) => process.exit(code ?? 0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
