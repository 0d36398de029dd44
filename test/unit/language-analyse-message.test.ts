/** Clause analysis on compromise: sentence type, subject, verb, negation and named things, on everyday typing. */
import { describe, expect, it } from "@jest/globals";
import { analyseMessage } from "../../src/language/index.js";

describe("analyseMessage", () => {
  it("reads a lowercase 'i' after an opener as the first-person subject, with lemma and tense", () => {
    const [c] = analyseMessage("tbh i moved to Porto last month");
    expect(c.type).toBe("statement");
    expect(c.subject?.person).toBe("i");
    expect(c.verb).toMatchObject({ lemma: "move", tense: "past" });
    expect(c.places).toContain("Porto");
    expect(c.dates.join(" ")).toMatch(/last month/);
    expect(c.text.toLowerCase().startsWith("tbh")).toBe(false);
  });

  it("splits questions from statements in one message, whatever their order", () => {
    const clauses = analyseMessage("can you suggest a gym? i just started a night shift at the bakery");
    expect(clauses.map((c) => c.type)).toEqual(["question", "statement"]);
    expect(clauses[1].subject?.person).toBe("i");
  });

  it("keeps a third party's subject with its possessor, head noun and name", () => {
    const [c] = analyseMessage("my nephew Tomas hates broccoli");
    expect(c.subject).toMatchObject({ person: "third", possessor: "i", head: "nephew", name: "Tomas" });
    expect(c.verb?.lemma).toBe("hate");
  });

  it("sees commands, negation and conditions", () => {
    const [cond, cmd] = analyseMessage("if you draft emails for me, don't add a signature");
    expect(cond.condition).toBe(true);
    expect(cmd.type).toBe("command");
    expect(cmd.negative).toBe(true);
    expect(analyseMessage("I no longer drink wine")[0].negative).toBe(true);
    expect(analyseMessage("I drink wine")[0].negative).toBe(false);
  });

  it("gives future and perfect tense and a modal", () => {
    expect(analyseMessage("we will fly to Oslo in June")[0].verb).toMatchObject({ lemma: "fly", tense: "future" });
    expect(analyseMessage("I've been a teacher for years")[0].verb?.tense).toBe("perfect");
    expect(analyseMessage("what should I read next?")[0]).toMatchObject({ type: "question" });
  });

  it("counts a plural first person and the numbers in a clause", () => {
    const [c] = analyseMessage("we have 3 cats and a parrot");
    expect(c.subject?.person).toBe("we");
    expect(c.numbers.length).toBeGreaterThan(0);
  });

  it("returns nothing for empty text", () => {
    expect(analyseMessage("   ")).toEqual([]);
  });
});
