import { join } from "node:path";
import type { CliCommand } from "../../src/cli/cli-command.js";
import { parseCommandArgs } from "../../src/cli/common-options.js";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { packageRoot } from "../../src/db/package-root.js";
import { NOT_MEASURED, modelToMeasure, type NotMeasured } from "../../src/cli/model-to-measure.js";
import { writeJson } from "../../src/cli/bench/stats.js";
import { defaultLocomoPath } from "../locomo/dataset.js";
import { runEvals } from "../run-evals.js";
import { summaryLines, writeEvalReports } from "../report/write-reports.js";

const HELP = `usage: langgraph-memory eval [--scenarios DIR] [--json FILE] [--report FILE.html]
       [--model provider:model [--with-offline]] [--locomo [PATH]]
       [--only ID,ID…] [--concurrency N] [--no-retention]

Runs eval scenarios (docs/evals.md) through the real memory pipeline — checkpointer, store,
rolling summaries, past sessions, extraction jobs drained after every turn, controls and the
retention sweep — each scenario on a fresh embedded database with its own clock, and checks what
memory context would be injected for each probe's question.

  --scenarios DIR     folder of scenario .json files (default: the public set, evals/scenarios)
  --json FILE         write the JSON report (recall, stale_rate, probes, scenarios,
                      tokens_per_probe_mean, results, …)
  --report FILE.html  write the self-contained HTML report
  --model SPEC        the LLM pipeline: extractor, summariser and responder use this chat model
                      (e.g. openai:gpt-4o-mini); reported as llm:<SPEC>. Without its key (or a
                      model that cannot be built): "not measured: no model configured", exit 0.
                      Default: the offline pipeline (rules, extractive summaries, offline responder)
  --with-offline      with --model, also run the offline pipeline, reported on its own
  --locomo [PATH]     also run the LoCoMo retrieval benchmark into the same report
                      (default data: ../shared/data/locomo/locomo10.json, read in place)
  --only IDS          run only these scenario ids (comma-separated)
  --concurrency N     scenarios at once (default 1)
  --no-retention      do not run the retention sweep at the scenarios' clocks

Exit code: 0 when the CI gate passes (recall ≥ 0.95, no stale hit, no isolation leak, no deletion
failure, no scenario error), 1 when it fails, 2 on bad arguments.`;

export const command: CliCommand = {
  summary: "run the cross-session memory evals (scenarios, metrics, JSON + HTML report, CI gate)",
  async run(argv) {
    // `--locomo` takes an optional path: read it before the strict parser sees it.
    let locomo: string | boolean = false;
    const rest: string[] = [];
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i];
      if (a === "--locomo") {
        const next = argv[i + 1];
        if (next !== undefined && !next.startsWith("-")) {
          locomo = next;
          i++;
        } else locomo = true;
      } else if (a.startsWith("--locomo=")) locomo = a.slice("--locomo=".length) || true;
      else rest.push(a);
    }
    const { values } = parseCommandArgs(rest, {
      scenarios: { type: "string" },
      json: { type: "string" },
      report: { type: "string" },
      model: { type: "string" },
      "with-offline": { type: "boolean" },
      only: { type: "string" },
      concurrency: { type: "string" },
      "no-retention": { type: "boolean" },
    });
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    if (values["database-url"] || values.schema) {
      console.error("eval runs every scenario on its own fresh embedded database: --database-url and --schema do not apply");
      return 2;
    }
    const concurrency = values.concurrency === undefined ? 1 : Number(values.concurrency);
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16) {
      console.error("--concurrency: an integer from 1 to 16");
      return 2;
    }
    if (values["with-offline"] && !values.model) {
      console.error("--with-offline goes with --model (the offline pipeline is the default)");
      return 2;
    }
    const scenarios = values.scenarios ?? join(packageRoot(), "evals", "scenarios");
    const pipeline = values.model ? `llm:${values.model}` : "offline";
    let model: BaseChatModel | undefined;
    if (values.model) {
      const built = await modelToMeasure(values.model);
      if ("reason" in built) {
        console.log(NOT_MEASURED);
        console.error(`(${built.reason})`);
        if (values.json) writeJson(values.json, { pipeline, measured: false, reason: built.reason } satisfies NotMeasured);
        return 0;
      }
      model = built.model;
    }
    console.error(`eval: ${scenarios} · pipeline ${pipeline}${locomo ? ` · LoCoMo ${locomo === true ? defaultLocomoPath() : locomo}` : ""}`);
    const report = await runEvals({
      scenarios,
      model,
      modelLabel: values.model,
      withOfflineBaseline: values["with-offline"],
      only: values.only?.split(",").map((s) => s.trim()).filter(Boolean),
      concurrency,
      retention: !values["no-retention"],
      locomo,
      onScenario: (r, done, total) => console.error(`  [${String(done).padStart(String(total).length)}/${total}] ${r.passed ? "pass" : "FAIL"} ${r.id} (${(r.runtime_ms / 1000).toFixed(1)} s)`),
      onLocomoProgress: (m) => process.stderr.write(m),
    });
    writeEvalReports(report, { json: values.json, html: values.report });
    for (const line of summaryLines(report)) console.log(line);
    if (values.json) console.log(`JSON report: ${values.json}`);
    if (values.report) console.log(`HTML report: ${values.report}`);
    console.log(`done in ${(report.runtime_ms / 1000).toFixed(1)} s`);
    return report.gate.passed ? 0 : 1;
  },
};
