/**
 * A scripted chat model that records every call: the messages it received, the call options
 * (bound tools, tool_choice, …), the run's tags, metadata and run name, and whether it streamed.
 * Built on `BaseChatModel`, so `invoke`, `stream`, `batch`, `bindTools`, `withStructuredOutput`
 * and LangGraph's `streamMode: "messages"` all go through LangChain's real code paths.
 *
 * @example
 * const model = new RecordingChatModel({ responses: [{ structured: { memories: [] } }, "plain text"] });
 * await model.withStructuredOutput(schema).invoke("hi");   // → { memories: [] } via a tool call
 * expect(model.calls[0].tags).toContain("nostream");
 * expect(model.calls).toHaveLength(1);                       // a test can also assert it was NOT called
 */
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import { BaseChatModel, type BaseChatModelParams, type BindToolsInput } from "@langchain/core/language_models/chat_models";
import { AIMessageChunk, isBaseMessage, type BaseMessage } from "@langchain/core/messages";
import { ChatGenerationChunk, type ChatResult } from "@langchain/core/outputs";
import type { Runnable } from "@langchain/core/runnables";

/** One scripted answer. */
export type ScriptedResponse =
  /** Plain text content. */
  | string
  /** Structured output: a tool call to the bound tool (withStructuredOutput), or JSON text when no tool is bound. */
  | { structured: Record<string, unknown> }
  /** Explicit tool calls (ids are generated when missing). */
  | { toolCalls: Array<{ name: string; args: Record<string, unknown>; id?: string }>; content?: string }
  /** A ready-made message (its content and tool calls are used). */
  | BaseMessage
  /** The call fails with this error. */
  | Error
  /** Decide from the call (e.g. echo part of the prompt). */
  | ((call: RecordedChatCall) => ScriptedResponse);

export interface RecordedChatCall {
  /** 1-based call number. */
  n: number;
  messages: BaseMessage[];
  /** All message texts joined with blank lines, for substring assertions. */
  text: string;
  /** Parsed call options the model received (tools, tool_choice, stop, signal, …). */
  options: Record<string, unknown>;
  /** Names of the tools bound for this call. */
  boundTools: string[];
  /** Tags of the run, inherited ones included (what LangGraph's stream handlers filter on). */
  tags: string[];
  metadata: Record<string, unknown>;
  runName?: string;
  /** The model answered chunk by chunk (`stream()` or a streaming handler such as `streamMode: "messages"`). */
  streamed: boolean;
}

export interface RecordingChatModelFields extends BaseChatModelParams {
  /** Answers in call order. */
  responses?: ScriptedResponse[];
  /** Answer once `responses` is exhausted; without it an extra call fails loudly. */
  defaultResponse?: ScriptedResponse;
  /** false → the model has no `bindTools`, like a completion-only model (structured output then falls back to text). */
  supportsTools?: boolean;
}

interface RunInfo {
  tags: string[];
  metadata: Record<string, unknown>;
  runName?: string;
}

/** Captures each run's tags/metadata/name as LangChain's callback system sees them. */
class RunInfoRecorder extends BaseCallbackHandler {
  name = "recording_chat_model_run_info";
  constructor(private readonly runs: Map<string, RunInfo>) {
    super({ _awaitHandler: true });
  }
  override copy(): this {
    return this;
  }
  override handleChatModelStart(
    _llm: unknown,
    _messages: BaseMessage[][],
    runId: string,
    _parentRunId?: string,
    _extraParams?: Record<string, unknown>,
    tags?: string[],
    metadata?: Record<string, unknown>,
    runName?: string,
  ): void {
    this.runs.set(runId, { tags: [...(tags ?? [])], metadata: { ...(metadata ?? {}) }, runName });
  }
}

function toolNames(options: Record<string, unknown>): string[] {
  const tools = options.tools;
  if (!Array.isArray(tools)) return [];
  return tools
    .map((t: unknown) => {
      const tool = t as { name?: unknown; function?: { name?: unknown } };
      return typeof tool?.function?.name === "string" ? tool.function.name : typeof tool?.name === "string" ? tool.name : undefined;
    })
    .filter((n): n is string => n !== undefined);
}

function textOf(message: BaseMessage): string {
  const content = message.content as unknown;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((b: unknown) => (typeof b === "string" ? b : typeof (b as { text?: unknown })?.text === "string" ? (b as { text: string }).text : "")).join("");
  }
  return "";
}

export class RecordingChatModel extends BaseChatModel {
  readonly calls: RecordedChatCall[] = [];
  private readonly queue: ScriptedResponse[];
  private readonly fallback?: ScriptedResponse;
  private readonly runs: Map<string, RunInfo>;

  constructor(fields: RecordingChatModelFields = {}) {
    const { responses, defaultResponse, supportsTools, ...rest } = fields;
    const runs = new Map<string, RunInfo>();
    super({ ...rest, callbacks: [...(Array.isArray(rest.callbacks) ? rest.callbacks : []), new RunInfoRecorder(runs)] });
    this.runs = runs;
    this.queue = [...(responses ?? [])];
    this.fallback = defaultResponse;
    if (supportsTools === false) Object.defineProperty(this, "bindTools", { value: undefined, enumerable: false });
  }

  _llmType(): string {
    return "recording-fake";
  }

  /** Queue more answers. */
  push(...responses: ScriptedResponse[]): this {
    this.queue.push(...responses);
    return this;
  }

  get lastCall(): RecordedChatCall | undefined {
    return this.calls[this.calls.length - 1];
  }

  override bindTools(tools: BindToolsInput[], kwargs?: Partial<this["ParsedCallOptions"]>): Runnable<any, any, any> {
    return this.withConfig({ tools, ...kwargs } as Partial<this["ParsedCallOptions"]>);
  }

  private record(messages: BaseMessage[], options: this["ParsedCallOptions"], runManager: CallbackManagerForLLMRun | undefined, streamed: boolean): RecordedChatCall {
    const info = runManager ? this.runs.get(runManager.runId) : undefined;
    if (runManager) this.runs.delete(runManager.runId);
    const opts = { ...(options as Record<string, unknown>) };
    const call: RecordedChatCall = {
      n: this.calls.length + 1,
      messages: [...messages],
      text: messages.map(textOf).join("\n\n"),
      options: opts,
      boundTools: toolNames(opts),
      tags: info?.tags ?? [],
      metadata: info?.metadata ?? {},
      runName: info?.runName,
      streamed,
    };
    this.calls.push(call);
    return call;
  }

  private answer(call: RecordedChatCall): AIMessageChunk {
    let next: ScriptedResponse | undefined = this.queue.length > 0 ? this.queue.shift() : this.fallback;
    if (next === undefined) throw new Error(`RecordingChatModel: no scripted response left for call #${call.n}`);
    while (typeof next === "function") next = next(call);
    if (next instanceof Error) throw next;
    if (typeof next === "string") return new AIMessageChunk({ content: next });
    if (isBaseMessage(next)) {
      const toolCalls = (next as { tool_calls?: Array<{ name: string; args: Record<string, unknown>; id?: string }> }).tool_calls ?? [];
      return new AIMessageChunk({
        content: next.content,
        tool_calls: toolCalls.map((t, i) => ({ name: t.name, args: t.args, id: t.id ?? `call_${call.n}_${i}`, type: "tool_call" as const })),
      });
    }
    if ("structured" in next) {
      const tool = call.boundTools[0];
      if (tool) return new AIMessageChunk({ content: "", tool_calls: [{ name: tool, args: next.structured, id: `call_${call.n}_0`, type: "tool_call" }] });
      return new AIMessageChunk({ content: JSON.stringify(next.structured) });
    }
    return new AIMessageChunk({
      content: next.content ?? "",
      tool_calls: next.toolCalls.map((t, i) => ({ name: t.name, args: t.args, id: t.id ?? `call_${call.n}_${i}`, type: "tool_call" as const })),
    });
  }

  async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"], runManager?: CallbackManagerForLLMRun): Promise<ChatResult> {
    const call = this.record(messages, options, runManager, false);
    const message = this.answer(call);
    // A chunk, as real chat models return: the base structured-output parser requires one.
    return { generations: [{ text: textOf(message), message }] };
  }

  override async *_streamResponseChunks(messages: BaseMessage[], options: this["ParsedCallOptions"], runManager?: CallbackManagerForLLMRun): AsyncGenerator<ChatGenerationChunk> {
    const call = this.record(messages, options, runManager, true);
    const message = this.answer(call);
    const text = textOf(message);
    for (const piece of text.match(/\S+\s*|\s+/g) ?? []) {
      const chunk = new ChatGenerationChunk({ text: piece, message: new AIMessageChunk({ content: piece }) });
      yield chunk;
      await runManager?.handleLLMNewToken(piece, undefined, undefined, undefined, undefined, { chunk });
    }
    if (message.tool_calls && message.tool_calls.length > 0) {
      yield new ChatGenerationChunk({
        text: "",
        message: new AIMessageChunk({
          content: "",
          tool_call_chunks: message.tool_calls.map((t, index) => ({ name: t.name, args: JSON.stringify(t.args), id: t.id, index, type: "tool_call_chunk" as const })),
        }),
      });
    }
  }
}
