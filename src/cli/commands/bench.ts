import type { Benchmark } from "../bench/benchmark.js";
import type { CliCommand } from "../cli-command.js";

// One thin file per benchmark under src/cli/bench/, loaded lazily. The LoCoMo benchmarks belong to
// the eval harness (evals/cli/), outside the published package: they run from a checkout.
const BENCHMARKS: Record<string, () => Promise<Benchmark>> = {
  context: async () => (await import("../bench/context.js")).benchmark,
  retrieval: async () => (await import("../bench/retrieval.js")).benchmark,
  checkpointer: async () => (await import("../bench/checkpointer.js")).benchmark,
  jobs: async () => (await import("../bench/jobs.js")).benchmark,
  jsonl: async () => (await import("../bench/jsonl.js")).benchmark,
  overhead: async () => (await import("../bench/overhead.js")).benchmark,
  startup: async () => (await import("../bench/startup.js")).benchmark,
  locomo: async () => (await import("../checkout-commands.js")).loadCheckoutCommand("locomo", "benchmark", "langgraph-memory bench locomo"),
  "locomo-memory": async () => (await import("../checkout-commands.js")).loadCheckoutCommand("locomo-memory", "benchmark", "langgraph-memory bench locomo-memory"),
  summary: async () => (await import("../checkout-commands.js")).loadCheckoutCommand("summary", "benchmark", "langgraph-memory bench summary"),
  shared: async () => (await import("../bench/shared.js")).benchmark,
};

export const command: CliCommand = {
  summary: "run a benchmark (side by side with the official implementation or a floor)",
  async run(argv) {
    const [name, ...rest] = argv;
    const load = name ? BENCHMARKS[name] : undefined;
    if (!load) {
      const names = Object.keys(BENCHMARKS).sort();
      console.log(`usage: langgraph-memory bench <${names.join("|")}> [--json FILE] [options]`);
      return name && name !== "--help" && name !== "-h" ? 2 : 0;
    }
    return (await load()).run(rest);
  },
};
