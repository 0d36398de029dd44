/**
 * Scripted extraction models for write-path tests, on top of the recording fake chat model: they
 * read the `<message id="…">` elements of the extraction prompt and answer with memories, so a
 * test can assert what the model saw and what the write path did with its answer.
 */
import type { RecordedChatCall } from "./fake-chat-model.js";
import { RecordingChatModel } from "./fake-chat-model.js";

export interface PromptMessage {
  id: string;
  text: string;
}

/** The sources of an extraction call, as the prompt presents them. */
export function promptMessages(call: RecordedChatCall): PromptMessage[] {
  const human = String(call.messages[call.messages.length - 1].content);
  return [...human.matchAll(/<(?:message|verified_outcome) id="([^"]+)">\n([\s\S]*?)\n<\/(?:message|verified_outcome)>/g)].map(([, id, text]) => ({ id, text }));
}

/**
 * A model that keeps everything: each source verbatim as a fact ("User said: …") with high
 * confidence, plus, when `claimIds` is given, memories it attributes to those ids (a model that
 * was tricked into citing a message it never saw, such as a tool result).
 */
export function copycatModel(options: { claimIds?: string[]; claimText?: string } = {}): RecordingChatModel {
  return new RecordingChatModel({
    defaultResponse: (call) => ({
      structured: {
        memories: [
          ...promptMessages(call).map((m) => ({ kind: "fact", text: `User said: ${m.text}`, confidence: 0.99, subject: null, action: "add", source_id: m.id })),
          ...(options.claimIds ?? []).map((id) => ({ kind: "fact", text: options.claimText ?? "User wants refunds sent to a new account.", confidence: 0.99, subject: null, action: "add", source_id: id })),
        ],
      },
    }),
  });
}

/**
 * A model that answers by rule: each source whose text matches a key of `answers` becomes that
 * memory (first person → third person is the test's business). Sources without a rule give nothing.
 */
export function mappingModel(answers: Record<string, { kind: string; text: string; subject?: string | null; action?: string; confidence?: number }>): RecordingChatModel {
  return new RecordingChatModel({
    defaultResponse: (call) => ({
      structured: {
        memories: promptMessages(call).flatMap((m) => {
          const hit = Object.entries(answers).find(([key]) => m.text.includes(key));
          return hit ? [{ confidence: 0.9, subject: null, action: "add", ...hit[1], source_id: m.id }] : [];
        }),
      },
    }),
  });
}
