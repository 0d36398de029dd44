/**
 * `langgraph-memory dev` as a user runs it: its own process on the repo's langgraph.json (the
 * memory agent, offline), a free port, analytics off. Through the SDK a run's thread state is
 * read back; the viewer and its sign-in link answer on the same port; `--graph PATH:EXPORT`
 * serves a graph file instead; bad options are refused with a message that says what to write.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { Client } from "@langchain/langgraph-sdk";
import { freePort } from "./dev-server.js";

const TIMEOUT = 150_000;

function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !/^(MODEL|EMBEDDINGS|OPENAI_API_KEY|DATABASE_URL|LANGGRAPH_MEMORY_.*|NODE_OPTIONS|JEST_WORKER_ID)$/.test(k)) env[k] = v;
  }
  return { ...env, LANGGRAPH_CLI_NO_ANALYTICS: "1", LANGGRAPH_MEMORY_EXTRACTION: "inline" };
}

interface Running {
  url: string;
  output: () => string;
  stop: () => Promise<void>;
}

/** Start `dev` with `args`; resolves once its start-up lines up to `ready` are out (its output is kept for assertions). */
async function startDev(args: string[], ready = /memory viewer and controls API: \S+\n/): Promise<Running> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "src/cli/run.ts", "dev", "--port", String(port), "--database-url", "memory://", ...args], {
    cwd: process.cwd(),
    env: cleanEnv(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (d) => (out += d));
  child.stderr?.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode !== null) return;
    child.kill("SIGTERM");
    const timer = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), 15_000).unref());
    if ((await Promise.race([exited, timer])) === "timeout") child.kill("SIGKILL");
  };
  const deadline = Date.now() + 90_000;
  while (!ready.test(out)) {
    if (child.exitCode !== null) throw new Error(`dev exited with ${child.exitCode}:\n${out}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`dev did not start in time:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url: `http://127.0.0.1:${port}`, output: () => out, stop };
}

describe("langgraph-memory dev", () => {
  it(
    "serves langgraph.json's graphs on our checkpointer, the viewer and its sign-in link on one port, and stops on SIGTERM",
    async () => {
      const dev = await startDev(["--dev-user", "acme:alice"], /sign in to the viewer as .*\n/);
      try {
        expect(dev.output()).toContain("graphs: memory_agent, extract_memories");
        expect(dev.output()).toContain(`memory viewer and controls API: ${dev.url}/memory/`);
        const client = new Client({ apiUrl: dev.url });
        const thread = await client.threads.create();
        const alice = { configurable: { tenant_id: "acme", user_id: "alice" } };
        await client.runs.wait(thread.thread_id, "memory_agent", { input: { messages: [{ role: "user", content: "I live in Lisbon." }] }, config: alice });
        const second = await client.threads.create();
        const values = await client.runs.wait(second.thread_id, "memory_agent", { input: { messages: [{ role: "user", content: "Where do I live?" }] }, config: alice });
        const messages = (values as { messages: Array<{ content: string }> }).messages;
        expect(messages.at(-1)?.content).toMatch(/location Lisbon/);
        const history = await client.threads.getHistory(thread.thread_id);
        expect(history.length).toBeGreaterThan(2);

        const link = /sign in to the viewer as acme\/alice: (\S+)/.exec(dev.output())?.[1] ?? "";
        expect(link.startsWith(`${dev.url}/memory/#login=`)).toBe(true);
        const session = await fetch(`${dev.url}/memory/api/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ code: link.split("#login=")[1] }) });
        expect(session.status).toBe(200);
        const { token } = (await session.json()) as { token: string };
        // The memory the run extracted is the viewer's: one database behind both.
        const profile = await fetch(`${dev.url}/memory/api/profile`, { headers: { authorization: `Bearer ${token}` } });
        expect(JSON.stringify(await profile.json())).toMatch(/Lisbon/);
      } finally {
        await dev.stop();
      }
      expect(dev.output()).toContain("langgraph-memory: stopping");
    },
    TIMEOUT,
  );

  it(
    "serves a graph file given with --graph ID=PATH:EXPORT",
    async () => {
      const dev = await startDev(["--graph", "echo=./test/e2e/studio-graphs.ts:graph"]);
      try {
        expect(dev.output()).toContain("graphs: echo;");
        const client = new Client({ apiUrl: dev.url });
        const thread = await client.threads.create();
        const values = await client.runs.wait(thread.thread_id, "echo", { input: { messages: [{ role: "user", content: "hi" }] } });
        expect((values as { messages: Array<{ content: string }> }).messages.map((m) => m.content)).toEqual(["hi", "echo: hi"]);
      } finally {
        await dev.stop();
      }
    },
    TIMEOUT,
  );

  it("refuses a graph export that is not there, and --dev-user off loopback", () => {
    const run = (args: string[]) => spawnSync(process.execPath, ["--import", "tsx", "src/cli/run.ts", "dev", "--database-url", "memory://", "--port", "0", ...args], { cwd: process.cwd(), env: cleanEnv(), encoding: "utf8", timeout: 60_000 });
    const missing = run(["--graph", "./test/e2e/studio-graphs.ts:nope"]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/has no compiled graph as export "nope" \(its exports: .*graph/);
    const remote = run(["--host", "0.0.0.0", "--dev-user", "acme:alice"]);
    expect(remote.status).toBe(2);
    expect(remote.stderr).toMatch(/only runs on a loopback host/);
  }, 90_000);
});
