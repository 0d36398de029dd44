// Entry point for running the CLI from source: `node --import tsx src/cli/run.ts <command> …`.
import { main } from "./main.js";

main(process.argv.slice(2)).then(
  (code) => process.exit(code ?? 0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
