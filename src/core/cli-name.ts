/**
 * How a person runs the command line, in the hints messages print: the package's binary is on the
 * PATH only inside npm scripts, so `npx` is what works in any project that installed it.
 */
export const CLI_INVOCATION = "npx langgraph-memory";

/**
 * A command line to suggest in a message.
 *
 * @example
 * cliCommand("worker"); // "npx langgraph-memory worker"
 */
export function cliCommand(args: string): string {
  return `${CLI_INVOCATION} ${args}`;
}
