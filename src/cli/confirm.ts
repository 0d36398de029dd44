import { createInterface } from "node:readline/promises";

export interface PromptStreams {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream;
}

/**
 * Ask before something that cannot be undone: the person types `expected` (e.g. the user id)
 * to go ahead. Without a terminal nobody can answer, so it returns "no-tty" and the command
 * refuses unless `--yes` was given — a cron job or a pipe never deletes by accident.
 *
 * @example
 * const answer = await confirmByTyping(`Delete everything of acme/alice?`, "alice");
 * if (answer !== "confirmed") return 1;
 */
export async function confirmByTyping(question: string, expected: string, streams: PromptStreams = { input: process.stdin, output: process.stderr }): Promise<"confirmed" | "declined" | "no-tty"> {
  if (!streams.input.isTTY) return "no-tty";
  const rl = createInterface({ input: streams.input, output: streams.output, terminal: false });
  try {
    const answer = await rl.question(`${question}\nType "${expected}" to confirm (anything else cancels): `);
    return answer.trim() === expected ? "confirmed" : "declined";
  } finally {
    rl.close();
  }
}
