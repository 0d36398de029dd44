#!/usr/bin/env node
// The CLI runs from the compiled output (`npm run build`); see README.md.
import { main } from '../dist/src/cli/main.js';

main(process.argv.slice(2)).then(
  (code) => process.exit(code ?? 0),
  (err) => {
    console.error(err?.code ? `${err.code}: ${err.message}` : err);
    process.exit(1);
  },
);
