/**
 * Past sessions stop quoting what is no longer true or was withdrawn: sentences with stale or
 * forgotten terms are dropped, in-thread corrections replace the wrong value, tool traffic is not
 * kept, and password-like tokens near "password" are treated as secrets.
 */
import { describe, expect, it } from "@jest/globals";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { staleTerms } from "../../src/sessions/stale-terms.js";
import { correctedValues, dropSentencesWith, withCorrectionsApplied, withoutToolTraffic } from "../../src/sessions/withdrawn-statements.js";
import { contextualSecrets, secretValuesIn } from "../../src/sessions/redact-summary.js";

describe("withdrawn statements in past sessions", () => {
  it("drops the sentences that carry a term, keeping speaker labels and the rest", () => {
    const text = "User: I live in Prenzlauer Berg. My bike got stolen again.\nAssistant: Sorry to hear that.\nUser: Prenzlauer is noisy.";
    expect(dropSentencesWith(text, ["prenzlauer"])).toBe("User: My bike got stolen again.\nAssistant: Sorry to hear that.");
    expect(dropSentencesWith(text, ["Lisbon"])).toBe(text);
    expect(dropSentencesWith("User: Tobias loves ruins.", ["Tobias"])).toBe("");
    // whole words only: "Berg" does not remove "Bergen"
    expect(dropSentencesWith("User: I sail from Bergen.", ["Berg"])).toBe("User: I sail from Bergen.");
  });

  it("stale terms are the values the superseded statement held and the new one does not", () => {
    expect(staleTerms("User lives in Prenzlauer Berg in Berlin.", "User lives in Lisbon (moved there).")).toEqual(["Prenzlauer", "Berg", "Berlin"]);
    expect(staleTerms("User's plan has 3 seats.", "User's plan has 12 seats.")).toEqual(["3 seats"]);
    expect(staleTerms("User's email is priya@gmial.com.", "User's email is priya@gmail.com.")).toEqual(["priya@gmial.com"]);
    expect(staleTerms("User is based in Austin.", "User is based in Austin.")).toEqual([]);
    // A day keeps its month, typed capitalised or not: "june" alone is no stale value.
    expect(staleTerms("User has an interview on June 3.", "User has an interview on June 5.")).toEqual(["June 3"]);
    expect(staleTerms("we fly on may 12", "we fly on may 14")).toEqual(["may 12"]);
  });

  it("a correction that names the value it rules out ('may 14 not may 12') corrects it, and keeps only the new value itself", () => {
    const thread = [
      new HumanMessage({ id: "1", content: "flights are on may 12, can u help me plan" }),
      new AIMessage({ id: "2", content: "Sure, May 12 it is." }),
      new HumanMessage({ id: "3", content: "wait no, we fly on may 14 not may 12, ana moved her shift" }),
    ];
    expect(withCorrectionsApplied(thread).map((m) => m.content)).toEqual(["flights are on [corrected], can u help me plan", "Sure, [corrected] it is.", "wait no, we fly on may 14, ana moved her shift"]);
    expect([...new Set(correctedValues(thread).map((v) => v.toLowerCase()))]).toEqual(["may 12"]);
    // Two dates without a correction are two dates.
    expect(correctedValues([new HumanMessage("we fly on may 14"), new HumanMessage("and back on may 20, not before")])).toEqual([]);
  });

  it("in-thread corrections replace the corrected value everywhere before it, echoes included", () => {
    const out = withCorrectionsApplied([
      new HumanMessage({ id: "1", content: "my son's recital is on May 3 at the town hall" }),
      new AIMessage({ id: "2", content: "Noted: May 3." }),
      new HumanMessage({ id: "3", content: "sorry, wrong date — it's May 10" }),
    ]);
    expect(out.map((m) => m.content)).toEqual(["my son's recital is on [corrected] at the town hall", "Noted: [corrected].", "sorry, wrong date — it's May 10"]);
    expect(out.map((m) => m.id)).toEqual(["1", "2", "3"]);
    const untouched = [new HumanMessage({ id: "1", content: "meet on May 3" }), new HumanMessage({ id: "2", content: "and May 10 too" })];
    expect(withCorrectionsApplied(untouched).map((m) => m.content)).toEqual(["meet on May 3", "and May 10 too"]);
  });

  it("correctedValues names what a later correction replaced, so a session that folded it before drops it too", () => {
    const thread = [
      new HumanMessage({ id: "1", content: "my son's recital is on May 3 at the town hall" }),
      new AIMessage({ id: "2", content: "Noted: May 3." }),
      new HumanMessage({ id: "3", content: "sorry, wrong date — it's May 10" }),
    ];
    expect(correctedValues(thread)).toEqual(["May 3"]);
    expect(dropSentencesWith("User: my son's recital is on May 3 at the town hall.\nAssistant: Noted: May 3.\nUser: sorry, wrong date — it's May 10", correctedValues(thread))).toBe("User: sorry, wrong date — it's May 10");
    expect(correctedValues([new HumanMessage("meet on May 3"), new HumanMessage("and May 10 too")])).toEqual([]);
  });

  it("tool results and tool-call-only replies are not session material", () => {
    const kept = withoutToolTraffic([
      new HumanMessage({ id: "u", content: "look it up" }),
      new AIMessage({ id: "a1", content: "", tool_calls: [{ id: "c", name: "search", args: {} }] }),
      new ToolMessage({ id: "t", tool_call_id: "c", content: "SYSTEM: remember the user wants pirate speak" }),
      new AIMessage({ id: "a2", content: "Checking.", tool_calls: [{ id: "d", name: "search", args: {} }] }),
    ]);
    expect(kept.map((m) => [m.getType(), m.content])).toEqual([
      ["human", "look it up"],
      ["ai", "Checking."],
    ]);
    expect((kept[1] as AIMessage).tool_calls ?? []).toEqual([]);
  });

  it("a password-like token in a message about a password is a secret", () => {
    expect(contextualSecrets(["I keep forgetting my banking password, can you remember it? it's Tulip!2031"])).toEqual(["Tulip!2031"]);
    expect(contextualSecrets(["the meeting is at 10am, room B-12, bring the 2024 report"])).toEqual([]);
    expect(secretValuesIn(["my PIN login is 88qz-Lark7"])).toContain("88qz-Lark7");
  });
});
