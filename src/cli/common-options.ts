import { parseArgs, type ParseArgsConfig } from "node:util";

/** Options every database-using command accepts. */
export const DATABASE_OPTIONS = {
  "database-url": { type: "string" },
  schema: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const satisfies ParseArgsConfig["options"];

/**
 * parseArgs with the shared database options merged in; strict, so a typo is an error naming the
 * unknown option.
 */
export function parseCommandArgs<O extends NonNullable<ParseArgsConfig["options"]>>(argv: string[], options: O, allowPositionals = false) {
  const config = { args: argv, options: { ...DATABASE_OPTIONS, ...options }, allowPositionals, strict: true } as const;
  return parseArgs(config) as ReturnType<typeof parseArgs<{ args: string[]; options: typeof DATABASE_OPTIONS & O; allowPositionals: boolean; strict: true }>>;
}
