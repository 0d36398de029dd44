/**
 * The background extraction graph (langgraph.json: `extract_memories`): a LangGraph Platform
 * background run does what the worker does for a queued job. Input: the extraction payload that
 * `schedule_extraction` queues — `{ v: 1, threadId, messages: [{ id, role, text, context?, runId? }] }`;
 * scope from `config.configurable.tenant_id` / `user_id`; output adds `report` (counts and ids).
 * Memory opens from the environment, as in `memory_agent`.
 */
import { createExtractionGraph, sharedMemory } from "../src/exports/graph.js";

export const graph = createExtractionGraph(sharedMemory);
