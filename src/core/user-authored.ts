import type { BaseMessage } from "@langchain/core/messages";

/**
 * Set `additional_kwargs[UNTRUSTED_CONTENT_FLAG] = true` on a human-typed message that actually
 * carries third-party text (a RAG app that pastes retrieved documents into the user turn): the
 * extractors then never read it, and a past session does not quote it as the user's words.
 */
export const UNTRUSTED_CONTENT_FLAG = "langgraph_memory_untrusted";

/** Default trust test: the human role, minus messages the app flagged as carrying third-party text. */
export function isUserAuthored(message: BaseMessage): boolean {
  if (message.getType() !== "human") return false;
  return message.additional_kwargs?.[UNTRUSTED_CONTENT_FLAG] !== true;
}
