/**
 * The command line's shape, the same for every command: the usage lists each command with its
 * summary on one line; one tenant default and one --user/--tenant parser; hints that name
 * `npx langgraph-memory`; counts with the right noun.
 */
import { afterEach, beforeEach, describe, expect, it, jest } from "@jest/globals";
import { readdirSync } from "node:fs";
import { main } from "../../src/cli/main.js";
import { parseUserSpec, requireUser, scopeArgs } from "../../src/cli/scope-options.js";
import { CLI_INVOCATION, cliCommand } from "../../src/core/cli-name.js";
import { countOf } from "../../src/core/plural.js";
import { DEFAULT_TENANT_ID } from "../../src/core/scope.js";
import type { CliCommand } from "../../src/cli/cli-command.js";

const COMMAND_FILES = readdirSync("src/cli/commands").filter((f) => f.endsWith(".ts")).map((f) => f.slice(0, -3));
/** Commands loaded from a checkout's evals/cli/ (the package ships no evals). */
const CHECKOUT_COMMANDS: Record<string, string> = { eval: "../../evals/cli/eval.js" };
const COMMANDS = [...COMMAND_FILES, ...Object.keys(CHECKOUT_COMMANDS)].sort();
const modulePath = (name: string) => CHECKOUT_COMMANDS[name] ?? `../../src/cli/commands/${name}.js`;

describe("langgraph-memory usage", () => {
  let out: string[];
  let err: string[];
  beforeEach(() => {
    out = [];
    err = [];
    jest.spyOn(console, "log").mockImplementation((...a: unknown[]) => void out.push(a.join(" ")));
    jest.spyOn(console, "error").mockImplementation((...a: unknown[]) => void err.push(a.join(" ")));
  });
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it("--help: one line per command with the command's own summary", async () => {
    expect(await main(["--help"])).toBe(0);
    const lines = out.join("\n").split("\n");
    const start = lines.indexOf("commands:") + 1;
    const listed = lines.slice(start, start + COMMANDS.length);
    expect(listed.map((l) => l.trim().split(/\s+/)[0])).toEqual(COMMANDS);
    for (const [i, name] of COMMANDS.entries()) {
      const command = (await import(modulePath(name))).command as CliCommand;
      expect(listed[i].replace(/^ +\S+ +/, "")).toBe(command.summary);
    }
    expect(lines[start + COMMANDS.length]).toBe("");
    expect(out.join("\n")).toContain("Run `npx langgraph-memory <command> --help` (or `help <command>`) for a command's options.");
    expect(out.join("\n")).toContain('User: --user U [--tenant T]; the tenant is "default" unless named, in every command.');
  }, 60_000);

  it("no command: the usage, exit 2; an unknown one (also an Object property name): the usage on stderr, exit 2", async () => {
    expect(await main([])).toBe(2);
    expect(out.join("\n")).toMatch(/^usage: langgraph-memory <command> \[options\]\n\ncommands:\n {2}bench +run a benchmark/);
    for (const name of ["purge", "constructor"]) {
      err = [];
      expect(await main([name])).toBe(2);
      expect(err.join("\n")).toMatch(new RegExp(`^unknown command "${name}"\\n\\nusage: langgraph-memory <command>`));
      expect(err.join("\n")).toMatch(/\n  memories +list, show, edit, delete, export or forget all memories of one user; opt them out or in\n/);
    }
  });

  it("help <command> is that command's help", async () => {
    expect(await main(["help", "memories"])).toBe(0);
    expect(out.join("\n")).toContain("usage: langgraph-memory memories <subcommand> --user U [--tenant T]");
    expect(out.join("\n")).toContain("opt-out [--purge [--yes]] [--json]");
    out = [];
    expect(await main(["help", "serve"])).toBe(0);
    expect(out.join("\n")).toContain("--dev-user [T:]U");
  });
});

describe("one --user/--tenant parser", () => {
  it("the tenant defaults to \"default\", for every command", () => {
    expect(DEFAULT_TENANT_ID).toBe("default");
    expect(requireUser({ user: "alice" })).toEqual({ tenantId: "default", userId: "alice" });
    expect(requireUser({ user: "alice", tenant: "acme" })).toEqual({ tenantId: "acme", userId: "alice" });
    expect(requireUser({ user: "alice", tenant: "  " })).toEqual({ tenantId: "default", userId: "alice" });
    expect(() => requireUser({ tenant: "acme" })).toThrow(/--user U is required/);
    expect(() => requireUser({ user: "a".repeat(300) })).toThrow(/--user: at most 256 characters/);
  });

  it("serve --dev-user takes USER (default tenant) or TENANT:USER", () => {
    expect(parseUserSpec("alice", "--dev-user")).toEqual({ tenantId: "default", userId: "alice" });
    expect(parseUserSpec("acme:alice", "--dev-user")).toEqual({ tenantId: "acme", userId: "alice" });
    expect(parseUserSpec("acme:al:ice", "--dev-user")).toEqual({ tenantId: "acme", userId: "al:ice" });
    for (const bad of ["", "acme:", ":alice", " : "]) expect(() => parseUserSpec(bad, "--dev-user")).toThrow("--dev-user: write USER or TENANT:USER, e.g. alice or acme:alice");
  });

  it("hints name the user as a shell reads it back, the tenant only when it is not the default", () => {
    expect(scopeArgs({ tenantId: "default", userId: "alice" })).toBe("--user alice");
    expect(scopeArgs({ tenantId: "acme", userId: "alice@example.com" })).toBe("--user alice@example.com --tenant acme");
    expect(scopeArgs({ tenantId: "acme", userId: "O'Brien $HOME" })).toBe(`--user 'O'\\''Brien $HOME' --tenant acme`);
  });
});

describe("messages", () => {
  it("hints name a command that works after install", () => {
    expect(CLI_INVOCATION).toBe("npx langgraph-memory");
    expect(cliCommand("worker")).toBe("npx langgraph-memory worker");
  });

  it("counts take the right noun", () => {
    expect([0, 1, 2].map((n) => countOf(n, "memory", "memories"))).toEqual(["0 memories", "1 memory", "2 memories"]);
    expect([1, 3].map((n) => countOf(n, "thread"))).toEqual(["1 thread", "3 threads"]);
  });
});
