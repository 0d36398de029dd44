/**
 * What clients of the memory graphs see and may send: input, output and configuration as zod
 * schemas, which StateGraph takes beside its state (`new StateGraph(state, { input, output,
 * context })`, @langchain/langgraph 1.x) and the LangGraph API serves to Studio
 * (`/assistants/{id}/schemas`, read at run time from the graph's builder).
 *
 * The input is the only door a run opens to the state: LangGraph writes only the input schema's
 * keys at the start of a run, so the memory channels (summary, profile, rules, memories, past
 * sessions, usage, the extraction watermark) are written by the memory nodes alone. When any of
 * these schemas is zod, the API serves these (not the TypeScript types): the output mirrors the
 * state so Studio still shows it.
 */
import { z } from "zod";
import { MessagesZodMeta } from "@langchain/langgraph";
import { registry } from "@langchain/langgraph/zod";
import { ActiveRuleSchema, RetrievedMemorySchema, SessionSummarySchema } from "../state/state-schemas.js";

// A wrong type here is reported by the memory nodes as SCOPE_REQUIRED (a typed error naming the
// keys), not by LangGraph's context validation: `.catch` makes the schema accept anything at parse.
const scopeKey = (description: string) => z.string().min(1).optional().catch(undefined).describe(description);

/** The scope every memory run needs (`config.configurable`), as Studio's configuration panel shows it. */
export const MemoryScopeConfigSchema = z.object({
  tenant_id: scopeKey("Tenant (organisation) of the user this run is for. Required: every memory read and write is scoped to it, and a thread belongs to the tenant and user that started it."),
  user_id: scopeKey("The user this run is for, within the tenant. Required: the memory loaded and extracted is this user's own."),
});

/** The memory agent's configuration: the scope, and the task type of task-scoped rules. */
export const MemoryRunConfigSchema = MemoryScopeConfigSchema.extend({
  task_type: scopeKey("Optional task type: procedural rules scoped to this task apply too."),
});

/** LangGraph's messages channel (its reducer and Studio's chat input), described. */
const messagesField = (description: string) => (z.any().describe(description) as z.ZodType).register(registry, MessagesZodMeta as never);

/** Input of a memory graph: the new messages of the turn, nothing else. */
export const MemoryGraphInputSchema = z.object({
  messages: messagesField("The turn's new messages (a user message, or a list of messages); appended to the thread."),
});

const MemoryUsageSchema = z.object({
  profile: z.number(),
  rules: z.number(),
  memories: z.number(),
  summary: z.number(),
  pastSessions: z.number(),
  total: z.number(),
});

/** Output of a memory graph: the state after the turn (what Studio shows as the thread's values). */
export const MemoryGraphOutputSchema = z.object({
  messages: messagesField("The thread's messages."),
  summary: SessionSummarySchema.nullable().describe("Rolling summary of older turns, sealed by the memory steps (its watermark says which message it covers through)."),
  profile: z.record(z.string(), z.unknown()).nullable().describe("The user's profile document, loaded this turn."),
  rules: z.array(ActiveRuleSchema).describe("Approved procedural rules for this user and task, loaded this turn."),
  memories: z.array(RetrievedMemorySchema).describe("Long-term memories retrieved for the latest user message."),
  pastSessions: z.array(RetrievedMemorySchema).describe("Summaries of the user's relevant past sessions."),
  memoryUsage: MemoryUsageSchema.nullable().describe("Tokens each memory section added to this turn's prompt."),
  extractedThroughMessageId: z.string().nullable().describe("Id of the last message queued for memory extraction."),
});

/** Input of the extraction graph: an extraction payload as `schedule_extraction` queues it. */
export const ExtractionGraphInputSchema = z.object({
  v: z.unknown().describe("Payload version: 1."),
  threadId: z.unknown().describe("The thread the messages come from (it must be the configured user's)."),
  messages: z.unknown().describe("The turns' messages: [{ id, role, text, context?, runId? }], as schedule_extraction serialises them."),
});

/** Output of the extraction graph. */
export const ExtractionGraphOutputSchema = z.object({
  report: z.record(z.string(), z.unknown()).nullable().describe("What was written: counts and ids only."),
});
