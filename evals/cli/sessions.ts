import type { Benchmark } from "../../src/cli/bench/benchmark.js";
import { parseCommandArgs } from "../../src/cli/common-options.js";
import { ratio, table, writeJson } from "../../src/cli/bench/stats.js";
import type { LocomoSplit } from "../locomo/dataset.js";
import { FORMS, runSessionsBench, type FormFigures } from "../sessions/past-session-bench.js";

const HELP = `usage: npm run bench:sessions -- [--data PATH] [--split train|test|all] [--held-out-only] [--json FILE]

Past-session memories in two forms built from the same folded summaries in one run: the
transcript form (the newest lines of the session within the cap) and the summary form (a short
summary and the session's entities). Per form: tokens per memory as shown in the prompt, and the
share of later questions whose session is retrieved first (hit@1) or among the past sessions
given (hit@3, default limit and budget), with the vocabulary bridge off and on. Sets: the
held-out sessions (evals/sessions/held-out-sessions.ts; also corrected or forgotten values still
said) and LoCoMo (each session a past session of speaker A; a hit is an evidence turn's session).
Default data: ../shared/data/locomo/locomo10.json (read in place, never copied).`;

export const benchmark: Benchmark = {
  summary: "past-session memories: transcript form vs summary + entities, tokens and retrieval",
  async run(argv) {
    const { values } = parseCommandArgs(argv, { data: { type: "string" }, split: { type: "string" }, json: { type: "string" }, "held-out-only": { type: "boolean" } });
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const result = await runSessionsBench({
      dataPath: values.data,
      split: (values.split ?? "all") as LocomoSplit,
      heldOutOnly: values["held-out-only"] === true,
      log: (m) => process.stderr.write(m),
    });
    const rows = (name: string, set: Record<(typeof FORMS)[number], FormFigures>) =>
      FORMS.map((form) => {
        const f = set[form];
        return [`${name}: ${form}`, f.memories, f.tokens_mean, f.tokens_p50, f.tokens_max, `${f.bridge_off.hit_at_1} / ${f.bridge_off.hit_at_3}`, `${f.bridge_on.hit_at_1} / ${f.bridge_on.hit_at_3}`, f.stale_shown === undefined ? "" : `${f.stale_shown} / ${f.stale_anywhere}`];
      });
    const sets: Array<[string, Record<(typeof FORMS)[number], FormFigures>, number]> = [["held-out", result.held_out, result.held_out.transcript.bridge_off.questions]];
    if (result.locomo) sets.push([`LoCoMo ${result.locomo.split}`, result.locomo, result.locomo.transcript.bridge_off.questions]);
    console.log(
      table(
        ["set: form", "memories", "tokens mean", "p50", "max", "hit@1 / @3 (bridge off)", "hit@1 / @3 (bridge on)", "stale shown / anywhere"],
        sets.flatMap(([name, set]) => rows(name, set)),
      ),
    );
    for (const [name, set, questions] of sets) {
      const t = set.transcript;
      const s = set.summary;
      console.log(
        `${name} (${questions} questions): tokens per memory summary/transcript ${ratio(s.tokens_mean, t.tokens_mean)}×; hit@3 bridge off ${ratio(s.bridge_off.hit_at_3, t.bridge_off.hit_at_3)}×, bridge on ${ratio(s.bridge_on.hit_at_3, t.bridge_on.hit_at_3)}×; hit@1 bridge off ${ratio(s.bridge_off.hit_at_1, t.bridge_off.hit_at_1)}×`,
      );
    }
    console.log(`held-out: ${result.held_out.stale_values} corrected or forgotten values in the set; ${result.total_ms} ms`);
    if (values.json) writeJson(values.json, result);
    return 0;
  },
};
