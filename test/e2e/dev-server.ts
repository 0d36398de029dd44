/**
 * Start and stop `langgraphjs dev` (the LangGraph dev server / Studio back end) for a test: its own
 * process group, a free port other than 2024, analytics off, no browser, no reload; stopped by
 * killing the group (SIGTERM, then SIGKILL), whatever happened.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";

export interface DevServer {
  url: string;
  port: number;
  pid: number;
  /** Everything the server printed so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

/** A port the OS says is free now (never 2024, the dev server's default). */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.unref();
      server.on("error", reject);
      server.listen(0, "127.0.0.1", () => {
        const address = server.address();
        const p = typeof address === "object" && address ? address.port : 0;
        server.close(() => resolve(p));
      });
    });
    if (port !== 2024 && port > 0) return port;
  }
}

/** Start the dev server with `env` on top of a cleaned environment; resolves once `GET /ok` answers. */
export async function startDevServer(options: { cwd: string; env: Record<string, string>; timeoutMs?: number }): Promise<DevServer> {
  const port = await freePort();
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    // Offline and on our own database: no model, no key, no server Postgres, no test-runner flags.
    if (v === undefined || /^(MODEL|EMBEDDINGS|OPENAI_API_KEY|DATABASE_URL|LANGGRAPH_MEMORY_.*|NODE_OPTIONS|JEST_WORKER_ID)$/.test(k)) continue;
    env[k] = v;
  }
  Object.assign(env, { LANGGRAPH_CLI_NO_ANALYTICS: "1", BROWSER: "none", ...options.env });
  const bin = join(options.cwd, "node_modules", ".bin", "langgraphjs");
  const child: ChildProcess = spawn(bin, ["dev", "--no-browser", "--no-reload", "--host", "127.0.0.1", "--port", String(port), "--config", "langgraph.json"], {
    cwd: options.cwd,
    env,
    detached: true, // its own process group: the server's children go with it
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (d) => (out += d));
  child.stderr?.on("data", (d) => (out += d));
  let exited: string | null = null;
  child.on("exit", (code, signal) => (exited = `exited with ${code ?? signal}`));
  const pid = child.pid!;
  const url = `http://127.0.0.1:${port}`;

  const stop = async () => {
    if (exited === null) {
      const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      killGroup(pid, "SIGTERM");
      const timer = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), 10_000).unref());
      if ((await Promise.race([gone, timer])) === "timeout") killGroup(pid, "SIGKILL");
    }
    // Children that outlived the CLI (same group) go too.
    killGroup(pid, "SIGKILL");
  };

  const deadline = Date.now() + (options.timeoutMs ?? 90_000);
  try {
    for (;;) {
      if (exited !== null) throw new Error(`the dev server ${exited} before answering:\n${out.slice(-4000)}`);
      try {
        const res = await fetch(`${url}/ok`, { signal: AbortSignal.timeout(2_000) });
        if (res.ok) break;
      } catch {
        // not up yet
      }
      if (Date.now() > deadline) throw new Error(`the dev server did not answer on ${url} in time:\n${out.slice(-4000)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, port, pid, output: () => out, stop };
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}
