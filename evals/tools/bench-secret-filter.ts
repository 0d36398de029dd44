/**
 * Time of the secret and sensitive-data filter on the write path: `isStorable` over every sentence
 * of the three secrets corpora (sensitive and benign), and over one long text. Run:
 *   npx tsx evals/tools/bench-secret-filter.ts [path/to/detect-sensitive.ts]
 * (another checkout's module can be given to compare before and after).
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

async function main(): Promise<void> {
  const modulePath = resolve(process.argv[2] ?? "src/sensitive/detect-sensitive.ts");
  const { isStorable } = (await import(pathToFileURL(modulePath).href)) as { isStorable: (text: string) => boolean };
  const texts: string[] = [];
  for (const f of ["secrets-corpus-2.json", "sensitive-corpus.json", "secrets-in-sentences.json"]) {
    const doc = JSON.parse(readFileSync(join("test/fixtures", f), "utf8")) as { sensitive: Array<{ text: string }>; benign?: Array<{ text: string }> };
    for (const e of [...doc.sensitive, ...(doc.benign ?? [])]) texts.push(e.text);
  }
  for (let i = 0; i < 3; i++) for (const t of texts) isStorable(t);
  const rounds = 10;
  const started = performance.now();
  for (let i = 0; i < rounds; i++) for (const t of texts) isStorable(t);
  const perThousand = ((performance.now() - started) / (texts.length * rounds)) * 1000;
  const long = texts.join(" ").repeat(10);
  const t1 = performance.now();
  isStorable(long);
  console.log(`${texts.length} sentences × ${rounds}: ${perThousand.toFixed(1)} ms per 1,000 sentences; one text of ${long.length} characters: ${(performance.now() - t1).toFixed(0)} ms`);
}

void main();
