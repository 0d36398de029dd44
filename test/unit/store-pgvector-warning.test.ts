import { warnOnceWithoutPgvector } from "../../src/store/pgvector-warning.js";
import type { Database } from "../../src/db/database.js";

describe("warnOnceWithoutPgvector", () => {
  it("warns once per process, and only when the database lacks pgvector", () => {
    const messages: string[] = [];
    const warn = (m: string) => void messages.push(m);
    const withVector = { engine: "pglite", capabilities: { pgvector: true, serverVersion: "18.6" } } as Database;
    const without = { engine: "postgres", capabilities: { pgvector: false, serverVersion: "15.20" } } as Database;
    warnOnceWithoutPgvector(withVector, warn);
    expect(messages).toEqual([]);
    warnOnceWithoutPgvector(without, warn);
    warnOnceWithoutPgvector(without, warn);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain("no pgvector extension");
  });
});
