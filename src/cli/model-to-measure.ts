import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { ErrorCodes, isMemoryError } from "../errors.js";
import { chatModelFromSpec } from "../models/chat-model.js";

/** What `npm run eval -- --model` and `npm run bench:locomo-memory -- --model` print, exiting 0, when no model can be built. */
export const NOT_MEASURED = "not measured: no model configured";

/** The JSON a measurement writes instead of its report when it could not run. */
export interface NotMeasured {
  pipeline: string;
  measured: false;
  reason: string;
}

/**
 * The chat model of an LLM measurement from its `provider:model` spec, or why there is none (no
 * key, no provider package, a spec the initialiser cannot build): an LLM figure is measured
 * where a model exists and reported as not measured elsewhere, never as a failure.
 *
 * @example
 * const m = await modelToMeasure("openai:gpt-4o-mini");
 * if ("reason" in m) console.log(NOT_MEASURED);
 */
export async function modelToMeasure(spec: string): Promise<{ model: BaseChatModel } | { reason: string }> {
  try {
    const model = await chatModelFromSpec(spec);
    return model ? { model } : { reason: "give a provider:model spec (e.g. openai:gpt-4o-mini)" };
  } catch (err) {
    if (isMemoryError(err, ErrorCodes.MODEL_UNAVAILABLE)) return { reason: err.message };
    throw err;
  }
}
