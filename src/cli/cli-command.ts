/** A CLI command: `run` gets the arguments after the command name and returns the exit code. */
export interface CliCommand {
  summary: string;
  run(argv: string[]): Promise<number>;
}
