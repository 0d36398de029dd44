import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadCheckoutCommand } from "../../src/cli/checkout-commands.js";
import { isMemoryError } from "../../src/errors.js";

describe("eval-harness commands of the CLI", () => {
  it("load from a checkout: eval, bench locomo and bench locomo-memory keep their names", async () => {
    expect(typeof (await loadCheckoutCommand("eval", "command", "langgraph-memory eval")).run).toBe("function");
    expect(typeof (await loadCheckoutCommand("locomo-memory", "benchmark", "langgraph-memory bench locomo-memory")).run).toBe("function");
  });

  it("say CHECKOUT_REQUIRED, with the command to run, where the evals are not shipped", async () => {
    const root = mkdtempSync(join(tmpdir(), "lgm-no-evals-"));
    try {
      const err = await loadCheckoutCommand("eval", "command", "langgraph-memory eval", root).catch((e: unknown) => e);
      expect(isMemoryError(err, "CHECKOUT_REQUIRED")).toBe(true);
      expect((err as Error).message).toMatch(/checkout.*node --import tsx src\/cli\/run\.ts eval/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
