/** A benchmark: gets the arguments after its name, prints a table, writes JSON with --json. */
export interface Benchmark {
  summary: string;
  run(argv: string[]): Promise<number>;
}
