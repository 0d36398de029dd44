import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { ErrorCodes, MemoryError } from "../errors.js";
import { importOptionalPeer } from "./optional-peer.js";

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
  // langchain (and the provider's package, which it loads) are optional peers: only a configured model needs them.
  const { initChatModel } = await importOptionalPeer("langchain", () => import("langchain"), `the chat model "${spec}"`);
  try {
    return (await initChatModel(spec)) as unknown as BaseChatModel;
  } catch (err) {
    throw new MemoryError(ErrorCodes.MODEL_UNAVAILABLE, `cannot create the chat model "${spec}": ${(err as Error).message}`, { cause: err });
  }
}
