import { createInterface } from "node:readline";
import type { CliCommand } from "../cli-command.js";
import { parseCommandArgs } from "../common-options.js";
import { createMemory } from "../../memory.js";
import { isMemoryError } from "../../errors.js";
import { MemorySession, renderTurn } from "./demo.js";
import { SCOPE_HELP, SCOPE_OPTIONS, requireUser, scopeArgs } from "../scope-options.js";
import { cliCommand } from "../../core/cli-name.js";
import { countOf } from "../../core/plural.js";

const HELP = `usage: langgraph-memory chat --user U [--tenant T] [--thread ID] [--database-url URL] [--schema NAME]

Talk to the memory agent in the terminal, through the same pipeline as the graph (load_memory →
summarize → agent → schedule_extraction, extraction run by a worker after each answer). Every turn
shows what was retrieved and injected and what was written. Without MODEL the offline responder
answers from memory (labelled). Memory persists in the database (default: embedded in
./.langgraph-memory/; DATABASE_URL or --database-url for server Postgres).

${SCOPE_HELP}
  --thread ID    continue a thread (default: a new thread, printed at start)

Commands:
  /memories      what is remembered (active memories with their ids, and the profile)
  /forget ID     delete one memory (audited)
  /summary       this thread's rolling summary
  /exit          leave (also Ctrl-D)`;

export const command: CliCommand = {
  summary: "an interactive chat with the memory agent (/memories, /forget ID, /summary, /exit)",
  async run(argv) {
    const { values } = parseCommandArgs(argv, { ...SCOPE_OPTIONS, thread: { type: "string" } });
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    if (!values.user) {
      console.error("--user ID is required (whose memory to use)\n\n" + HELP);
      return 2;
    }
    const scope = requireUser(values);
    const threadId = values.thread ?? `chat-${new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "")}`;
    const memory = await createMemory({ databaseUrl: values["database-url"], schema: values.schema });
    const session = new MemorySession(memory, scope);
    const print = (line = "") => process.stdout.write(`${line}\n`);
    print(`langgraph-memory chat · ${scope.tenantId}/${scope.userId} · thread ${threadId} · ${memory.db.engine}`);
    print(memory.model ? `model ${memory.config.model}` : "no MODEL set: the offline responder answers from memory");
    print("commands: /memories  /forget ID  /summary  /exit");

    const rl = createInterface({ input: process.stdin, terminal: false });
    const interactive = process.stdin.isTTY === true;
    const prompt = () => {
      if (interactive) process.stdout.write(`${scope.userId} › `);
    };
    prompt();
    try {
      for await (const raw of rl) {
        const line = raw.trim();
        if (line === "") {
          prompt();
          continue;
        }
        if (line === "/exit" || line === "/quit") break;
        try {
          if (line === "/memories") {
            const seen = await memory.controls.inspect(scope);
            const active = seen.memories.filter((m) => m.status === "active");
            if (seen.optedOut) print("memory is off for this user (opted out)");
            print(`${countOf(active.length, "active memory", "active memories")}:`);
            for (const m of active) print(`  ${m.id}  [${m.kind}] ${m.text.replace(/\s+/g, " ").slice(0, 120)} (${m.createdAt.slice(0, 10)})`);
            const profile = Object.entries(seen.profile?.document ?? {});
            print(`profile: ${profile.length > 0 ? profile.map(([k, v]) => `${k} ${JSON.stringify(v)}`).join(", ") : "(empty)"}`);
          } else if (line.startsWith("/forget")) {
            const id = line.slice("/forget".length).trim();
            if (!id) print("usage: /forget ID (ids are listed by /memories)");
            else {
              const { deleted } = await memory.controls.deleteMemory(scope, id, { actor: "user" });
              print(`deleted ${countOf(deleted, "memory", "memories")}`);
            }
          } else if (line === "/summary") {
            const summary = await session.summary(threadId);
            print(summary ? `summary (${summary.tokens} tokens): ${summary.text}` : "no summary yet: this thread is still within its recent-messages budget");
          } else if (line.startsWith("/")) {
            print(`unknown command ${line.split(/\s/)[0]}: /memories, /forget ID, /summary, /exit`);
          } else {
            const outcome = await session.turn(threadId, line);
            // The user's line is already on screen in a terminal; show the rest.
            for (const l of renderTurn(outcome, scope.userId).slice(interactive ? 1 : 0)) print(l);
          }
        } catch (err) {
          if (!isMemoryError(err)) throw err;
          print(`error ${err.code}: ${err.message}`);
        }
        prompt();
      }
    } finally {
      rl.close();
      await memory.close();
    }
    print(`bye — continue later with: ${cliCommand(`chat ${scopeArgs(scope)} --thread ${threadId}`)}`);
    return 0;
  },
};
