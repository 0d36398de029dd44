/** Child processes running TypeScript through tsx, with their output lines observable. */
import { spawn, type ChildProcess } from "node:child_process";

export interface Child {
  child: ChildProcess;
  /** Lines printed so far (stdout). */
  lines(): string[];
  /** Resolves with the first stdout line for which `match` is true (rejects if the process exits first). */
  waitFor(match: (line: string) => boolean): Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

/** `node --import tsx <script> …args` with jest's NODE_OPTIONS removed. */
export function startTsx(script: string, args: string[], env: NodeJS.ProcessEnv = {}): Child {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete childEnv.NODE_OPTIONS; // jest's --experimental-vm-modules is not for the child
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], { env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  const waiters: Array<{ match: (l: string) => boolean; resolve: (l: string) => void }> = [];
  const lines = () => out.split("\n").filter((l) => l.length > 0);
  const check = () => {
    for (const w of [...waiters]) {
      const hit = lines().find(w.match);
      if (hit !== undefined) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(hit);
      }
    }
  };
  child.stdout!.on("data", (d: Buffer) => ((out += d.toString()), check()));
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  return {
    child,
    lines,
    waitFor: (match) =>
      new Promise<string>((resolve, reject) => {
        waiters.push({ match, resolve });
        check();
        void exited.then(() => setTimeout(() => reject(new Error(`process exited before the expected line\nstdout:\n${out}\nstderr:\n${err}`)), 50));
      }),
    exited,
    stderr: () => err,
  };
}
