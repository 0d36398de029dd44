/**
 * The rolling summary's entity field: merged across summaries (never re-derived), held to its own
 * budget by evicting the least recently mentioned first, closed tasks marked closed, and sealed and
 * read with the new fields.
 */
import { describe, expect, it } from "@jest/globals";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { entityTokens, fitEntities } from "../../src/summarization/format-summary.js";
import { readSummary } from "../../src/state/state-schemas.js";
import { sealSummary, verifySummary } from "../../src/state/summary-seal.js";
import { emptyEntities, type SessionSummary } from "../../src/state/types.js";
import { closedTasksIn } from "../../src/summarization/closed-tasks.js";
import { evictionOrder } from "../../src/summarization/entities.js";
import { summarizeMessages } from "../../src/summarization/summarize-messages.js";
import type { Summarizer, SummarizerOutput } from "../../src/summarization/summarizer.js";

/** A summariser that reports exactly what it is told (a model that forgets, or repeats). */
function reporting(...answers: SummarizerOutput[]): Summarizer {
  let n = 0;
  return { name: "scripted", summarize: async () => answers[Math.min(n++, answers.length - 1)] };
}

describe("entity field", () => {
  it("evicts the least recently mentioned first, closed tasks before others of the same age", () => {
    const entities = { ...emptyEntities(), people: ["Ana", "Ben"], references: ["K7QX2M"], closedTasks: ["Buy a dry bag."] };
    const recency = { generation: 4, lastMentioned: { "people:ana": 4, "people:ben": 1, "references:k7qx2m": 2, "closedTasks:buy a dry bag": 1 } };
    expect(evictionOrder(entities, recency).map((e) => e.item)).toEqual(["Buy a dry bag.", "Ben", "K7QX2M", "Ana"]);
    const budget = entityTokens({ ...emptyEntities(), people: ["Ana"], references: ["K7QX2M"] });
    const fitted = fitEntities(entities, recency, budget);
    expect(fitted.entities.people).toEqual(["Ana"]);
    expect(fitted.entities.references).toEqual(["K7QX2M"]);
    expect(fitted.entities.closedTasks).toEqual([]);
    expect(fitted.recency.lastMentioned).toEqual({ "people:ana": 4, "references:k7qx2m": 2 });
  });

  it("merges across summaries: a fact the next summary forgets stays, one mentioned again is fresh, a closed task is marked closed", async () => {
    const first = await summarizeMessages({
      messages: [new HumanMessage({ content: "Ana Lopes booked K7QX2M. Remind me to buy a dry bag.", id: "m1" }), new AIMessage({ content: "Noted.", id: "m2" })],
      summarizer: reporting({ text: "Ana booked.", entities: { people: ["Ana Lopes"], references: ["K7QX2M"], openTasks: ["Remind me to buy a dry bag."] } }),
      maxSummaryTokens: 400,
    });
    expect(first.factRecency?.generation).toBe(1);
    const second = await summarizeMessages({
      previous: first,
      messages: [new HumanMessage({ content: "Ana Lopes says hi. I bought the dry bag, so that's done.", id: "m3" }), new AIMessage({ content: "Great.", id: "m4" })],
      summarizer: reporting({ text: "Small talk.", entities: {}, closedTasks: ["remind me to buy a dry bag"] }),
      maxSummaryTokens: 400,
    });
    expect(second.entities.references).toEqual(["K7QX2M"]); // forgotten by the summariser, kept by the field
    expect(second.entities.openTasks).toEqual([]);
    expect(second.entities.closedTasks).toEqual(["Remind me to buy a dry bag."]);
    expect(second.factRecency?.lastMentioned).toMatchObject({ "people:ana lopes": 2, "references:k7qx2m": 1 });
  });

  it("keeps the secret filter on the merged field", async () => {
    const card = "4539 1488 0343 6467";
    const summary = await summarizeMessages({
      messages: [new HumanMessage({ content: `My card is ${card}, booking K7QX2M.`, id: "m1" })],
      summarizer: reporting({ text: "Card given.", entities: { references: ["card 4539", "1488", "0343", "6467", "K7QX2M"] } }),
      maxSummaryTokens: 400,
    });
    expect(summary.entities.references).toEqual(["K7QX2M"]);
  });

  it("closes the task a completion sentence names, and none without a completion cue", () => {
    const open = ["Remind me to buy a travel adapter before we leave.", "I still need to renew Ingrid's passport."];
    expect(closedTasksIn("I took care of Ingrid's passport yesterday, cross it off.", open)).toEqual([open[1]]);
    expect(closedTasksIn("Ingrid's passport photo looks odd.", open)).toEqual([]);
    expect(closedTasksIn("All done with the weather, thanks.", open)).toEqual([]);
  });

  it("seals the new fields, and summaries sealed before them still verify", () => {
    const key = new Uint8Array(32).fill(7);
    const scope = { tenantId: "t", userId: "u", threadId: "th" };
    const old: SessionSummary = { text: "x", entities: { people: ["Ana"], places: [], numbers: [], dates: [], decisions: [], openTasks: [] }, coversThroughMessageId: "m1", tokens: 5 };
    expect(verifySummary(sealSummary(old, key, scope), key, scope)).not.toBeNull();
    const next: SessionSummary = { ...old, entities: { ...old.entities, references: ["K7QX2M"] }, factRecency: { generation: 2, lastMentioned: { "people:ana": 2 } } };
    const sealed = sealSummary(next, key, scope);
    expect(verifySummary(sealed, key, scope)).not.toBeNull();
    expect(verifySummary({ ...sealed, factRecency: { generation: 2, lastMentioned: { "people:ana": 1 } } }, key, scope)).toBeNull();
    expect(verifySummary({ ...sealed, entities: { ...sealed.entities, references: ["EVIL01"] } }, key, scope)).toBeNull();
    expect(readSummary({ ...next, factRecency: { generation: "2" } })).toBeNull();
  });
});
