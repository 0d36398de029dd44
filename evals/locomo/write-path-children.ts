/**
 * Conversations of the write-path benchmark run in child processes, a few at once: the embedded
 * database runs on its process's one thread, so a conversation per process is what uses a second
 * core. Each child loads the data once and restores every database from the parent's template,
 * then runs the conversations it is handed (evals/locomo/write-path-child.ts).
 */
import { fork, type ChildProcess } from "node:child_process";
import { extname } from "node:path";
import { fileURLToPath } from "node:url";
import type { Budgets } from "../../src/config.js";
import type { ConversationRun } from "./write-path-metrics.js";

/** What every child needs to run any conversation. */
export interface ChildSetup {
  dataPath: string;
  /** A `provider:model` spec, or null for the offline pipeline. */
  model: string | null;
  budgets: Partial<Budgets>;
  retention: boolean;
  /** The parent's database template (`DatabaseTemplate.toDump`): no child runs initdb and the migrations again. */
  templateDump: Uint8Array;
}

export type ParentMessage = { type: "setup"; setup: ChildSetup } | { type: "run"; index: number };
export type ChildMessage = { type: "done"; index: number; run: ConversationRun } | { type: "error"; index: number; message: string };

/** Run the conversations at these positions in `concurrency` children; results in the given order. */
export async function runInChildren(indices: readonly number[], concurrency: number, setup: ChildSetup, onDone?: (done: number, total: number) => void): Promise<ConversationRun[]> {
  // The child is this module's sibling, with this module's extension (.ts from source, .js built).
  const entry = fileURLToPath(new URL(`./write-path-child${extname(fileURLToPath(import.meta.url))}`, import.meta.url));
  const results = new Map<number, ConversationRun>();
  const queue = [...indices];
  const children: ChildProcess[] = [];
  try {
    await Promise.all(
      Array.from({ length: Math.min(concurrency, indices.length) }, async () => {
        const child = fork(entry, [], { execArgv: process.execArgv, serialization: "advanced", stdio: ["ignore", "inherit", "inherit", "ipc"] });
        children.push(child);
        child.send({ type: "setup", setup } satisfies ParentMessage);
        while (queue.length > 0) {
          const index = queue.shift()!;
          results.set(index, await runOne(child, index));
          onDone?.(results.size, indices.length);
        }
        child.disconnect();
      }),
    );
  } finally {
    for (const c of children) if (c.exitCode === null) c.kill();
  }
  return indices.map((i) => results.get(i)!);
}

async function runOne(child: ChildProcess, index: number): Promise<ConversationRun> {
  const reply = nextMessage(child);
  child.send({ type: "run", index } satisfies ParentMessage);
  const message = await reply;
  if (message.type === "error") throw new Error(`conversation ${index}: ${message.message}`);
  return message.run;
}

function nextMessage(child: ChildProcess): Promise<ChildMessage> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: ChildMessage) => {
      cleanup();
      resolve(m);
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`a benchmark child process exited (code ${code}) before answering`));
    };
    const cleanup = () => {
      child.off("message", onMessage);
      child.off("exit", onExit);
    };
    child.on("message", onMessage);
    child.on("exit", onExit);
  });
}
