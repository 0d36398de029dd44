import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { isMemoryError, type MemoryError } from "../errors.js";
import { MAX_LINE_BYTES } from "./jsonl-entry.js";
import { DEFAULT_LIMIT, DEFAULT_WINDOW_LINES, MAX_LIMIT, MAX_WINDOW_LINES } from "./jsonl-query.js";
import { JsonlMemory } from "./jsonl-memory.js";

export const JSONL_WRITE_DESCRIPTION =
  "Remember one stable, reusable fact about the user or project (a preference, a convention, a decision) in the shared memory file. " +
  "Call it only when the user explicitly asks you to remember something. Never store secrets, tokens, passwords, one-off details " +
  "or your own transient reasoning. Returns the stored entry as JSON.";

export const JSONL_SEARCH_DESCRIPTION =
  "Search the shared memory file for entries whose content, tags or type contain q, a literal substring where ASCII letters match " +
  "either case. Call it at the start of every task (q may be empty for the latest entries) unless told not to. Returns " +
  '{"results":[...],"truncated":bool,"used_window_lines":N}, newest first. truncated=false means results holds every match.';

const writeSchema = z.strictObject({
  type: z.string().min(1).optional().describe('What kind of memory: "note" (default), "preference", "decision", ...'),
  content: z.string().min(1).describe(`The text to remember; the whole entry must fit in ${MAX_LINE_BYTES - 1} bytes of JSON.`),
  tags: z.array(z.string()).optional().describe("Short labels that help later searches."),
  meta: z.record(z.string(), z.unknown()).optional().describe("Any other structured data to keep with the entry."),
});

const searchSchema = z.strictObject({
  q: z.string().optional().describe("Literal substring to look for; empty or missing returns the newest entries."),
  limit: z.number().int().min(1).max(MAX_LIMIT).optional().describe(`Most results to return (default ${DEFAULT_LIMIT}).`),
  window_lines: z
    .number()
    .int()
    .min(1)
    .max(MAX_WINDOW_LINES)
    .optional()
    .describe(`Lines to search first from the end of the file, doubled until enough results (default ${DEFAULT_WINDOW_LINES}).`),
});

/** The error a tool returns to the model: the same JSON memory.sh prints on stderr, so it can fix its call. */
function toolError(err: MemoryError): string {
  return JSON.stringify({ error: err.code, field: err.details?.field, message: err.message });
}

/**
 * LangChain tool `memory_write` over a {@link JsonlMemory}. Invalid input comes back to the model as
 * an error JSON instead of throwing.
 *
 * @example
 * const write = createJsonlWriteTool(new JsonlMemory());
 * await write.invoke({ content: "Prefers terse status updates.", tags: ["preference"] });
 */
export function createJsonlWriteTool(memory: JsonlMemory = new JsonlMemory()) {
  return tool(
    async (input) => {
      try {
        return JSON.stringify(await memory.write(input));
      } catch (err) {
        if (isMemoryError(err, "INVALID_INPUT") || isMemoryError(err, "SENSITIVE_CONTENT")) return toolError(err);
        throw err;
      }
    },
    { name: "memory_write", description: JSONL_WRITE_DESCRIPTION, schema: writeSchema },
  );
}

/**
 * LangChain tool `memory_search` over a {@link JsonlMemory}.
 *
 * @example
 * const search = createJsonlSearchTool(new JsonlMemory());
 * JSON.parse(await search.invoke({ q: "prefers", limit: 5 })).results;
 */
export function createJsonlSearchTool(memory: JsonlMemory = new JsonlMemory()) {
  return tool(
    async (input) => {
      try {
        return JSON.stringify(await memory.search(input));
      } catch (err) {
        if (isMemoryError(err, "INVALID_INPUT")) return toolError(err);
        throw err;
      }
    },
    { name: "memory_search", description: JSONL_SEARCH_DESCRIPTION, schema: searchSchema },
  );
}

/**
 * Both tools over one memory file, ready for `model.bindTools(tools)` or a ToolNode.
 *
 * @example
 * const tools = createJsonlMemoryTools(new JsonlMemory({ file: "./memory.jsonl" }));
 * const agent = createReactAgent({ llm, tools });
 */
export function createJsonlMemoryTools(memory: JsonlMemory = new JsonlMemory()) {
  return [createJsonlWriteTool(memory), createJsonlSearchTool(memory)] as const;
}
