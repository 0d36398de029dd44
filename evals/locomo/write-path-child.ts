/**
 * A child process of the write-path benchmark (see write-path-children.ts): set up once, then run
 * each conversation the parent sends and answer with its rows.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { BudgetsSchema } from "../../src/config.js";
import { chatModelFromSpec } from "../../src/models/chat-model.js";
import { DatabaseTemplate } from "../runner/database-template.js";
import { loadLocomo, type LocomoConversation } from "./dataset.js";
import { runConversation } from "./write-path-bench.js";
import type { ChildMessage, ChildSetup, ParentMessage } from "./write-path-children.js";

let ready: Promise<{ setup: ChildSetup; conversations: LocomoConversation[]; template: DatabaseTemplate; model: BaseChatModel | null }> | undefined;

process.on("message", (message: ParentMessage) => {
  if (message.type === "setup") {
    const setup = message.setup;
    ready = (async () => ({
      setup,
      conversations: loadLocomo(setup.dataPath),
      template: DatabaseTemplate.fromDump(new Blob([setup.templateDump])),
      model: setup.model ? ((await chatModelFromSpec(setup.model)) ?? null) : null,
    }))();
    return;
  }
  const index = message.index;
  void (async () => {
    try {
      const { setup, conversations, template, model } = await ready!;
      const conversation = conversations.find((c) => c.index === index);
      if (!conversation) throw new Error(`no conversation at position ${index}`);
      const run = await runConversation(conversation, { template, model, budgets: BudgetsSchema.parse(setup.budgets), retention: setup.retention });
      process.send!({ type: "done", index, run } satisfies ChildMessage);
    } catch (err) {
      process.send!({ type: "error", index, message: err instanceof Error ? err.message : String(err) } satisfies ChildMessage);
    }
  })();
});
