import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { ErrorCodes, MemoryError } from "../errors.js";

/**
 * A chat model from a `provider:model` string (`openai:gpt-4o-mini`, `anthropic:claude-…`)
 * through LangChain's universal initialiser; `undefined` → `undefined` (the offline defaults run).
 * The provider's package and key must be present; otherwise MODEL_UNAVAILABLE says what is missing.
 *
 * @example
 * const model = await chatModelFromSpec(process.env.MODEL); // undefined offline
 */
export async function chatModelFromSpec(spec: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<BaseChatModel | undefined> {
  if (!spec) return undefined;
  const provider = spec.includes(":") ? spec.slice(0, spec.indexOf(":")) : "";
  if (provider === "openai" && !env.OPENAI_API_KEY) {
    throw new MemoryError(ErrorCodes.MODEL_UNAVAILABLE, `model "${spec}" needs OPENAI_API_KEY; set it, or unset MODEL to use the offline defaults`);
  }
  try {
    const { initChatModel } = await import("langchain");
    return (await initChatModel(spec)) as unknown as BaseChatModel;
  } catch (err) {
    throw new MemoryError(ErrorCodes.MODEL_UNAVAILABLE, `cannot create the chat model "${spec}": ${(err as Error).message}`, { cause: err });
  }
}
