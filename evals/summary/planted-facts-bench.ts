/**
 * Part 1 of `bench summary`: the planted-facts thread (see `planted-thread.ts`) walked through
 * each strategy; at the end, the share of planted facts visible in the prompt (overall and per
 * kind) and the prompt tokens, and for the product path whether the open tasks closed on the way
 * are marked closed in the key facts.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { FACT_KINDS, plantedThread, type FactKind, type PlantedFact } from "./planted-thread.js";
import { holdsAll, normalizeForSearch, promptText } from "./prompt-text.js";
import { walkThread, type ThreadStrategy } from "./thread-strategies.js";

export const PLANTED_SYSTEM = "You are a concise travel assistant. Use the tools for weather and hotels; never guess prices.";

export interface PlantedStrategyFigures {
  strategy: string;
  facts: number;
  visible: number;
  /** visible / facts. */
  visible_share: number;
  by_kind: Record<FactKind, { facts: number; visible: number }>;
  prompt_tokens: number;
  summaries: number;
  fallbacks: number;
  /** Product path: planted open tasks closed later, and how many the key facts still list as open. */
  closed_tasks?: { closed: number; still_listed_open: number; marked_closed: number };
  /** Facts not visible: kind, turn and needles (for reading, never the whole sentence). */
  missed: Array<{ kind: FactKind; turn: number; needles: string[] }>;
}

export interface PlantedFactsResult {
  turns: number;
  seed: number;
  facts: number;
  strategies: PlantedStrategyFigures[];
}

/** Run the planted-facts part for each strategy (each gets the same thread, freshly generated). */
export async function runPlantedFacts(options: { turns: number; seed: number; strategies: Array<(system: string) => ThreadStrategy> }): Promise<PlantedFactsResult> {
  const out: PlantedStrategyFigures[] = [];
  let factCount = 0;
  for (const make of options.strategies) {
    const thread = plantedThread({ turns: options.turns, seed: options.seed });
    factCount = thread.facts.length;
    const strategy = make(PLANTED_SYSTEM);
    const prompt = await walkThread(thread.turns, strategy);
    out.push(figures(strategy.name, thread.facts, prompt.messages, prompt.tokens, prompt.summaries, prompt.fallbacks, prompt.summary ?? null));
  }
  return { turns: options.turns, seed: options.seed, facts: factCount, strategies: out };
}

function figures(
  name: string,
  facts: readonly PlantedFact[],
  messages: readonly BaseMessage[],
  tokens: number,
  summaries: number,
  fallbacks: number,
  summary: { entities: { openTasks: string[]; closedTasks?: string[] } } | null,
): PlantedStrategyFigures {
  const text = promptText(messages);
  const byKind = Object.fromEntries(FACT_KINDS.map((k) => [k, { facts: 0, visible: 0 }])) as PlantedStrategyFigures["by_kind"];
  const missed: PlantedStrategyFigures["missed"] = [];
  let visible = 0;
  for (const f of facts) {
    byKind[f.kind].facts++;
    if (holdsAll(text, f.needles)) {
      visible++;
      byKind[f.kind].visible++;
    } else missed.push({ kind: f.kind, turn: f.turn, needles: f.needles });
  }
  const result: PlantedStrategyFigures = {
    strategy: name,
    facts: facts.length,
    visible,
    visible_share: facts.length === 0 ? 0 : Math.round((visible / facts.length) * 1000) / 1000,
    by_kind: byKind,
    prompt_tokens: tokens,
    summaries,
    fallbacks,
    missed,
  };
  if (summary) {
    const closed = facts.filter((f) => f.closedAtTurn !== undefined);
    const open = summary.entities.openTasks.map(normalizeForSearch);
    const marked = (summary.entities.closedTasks ?? []).map(normalizeForSearch);
    const mentions = (list: string[], f: PlantedFact) => list.some((item) => f.needles.every((n) => item.includes(normalizeForSearch(n))));
    result.closed_tasks = {
      closed: closed.length,
      still_listed_open: closed.filter((f) => mentions(open, f)).length,
      marked_closed: closed.filter((f) => mentions(marked, f)).length,
    };
  }
  return result;
}
