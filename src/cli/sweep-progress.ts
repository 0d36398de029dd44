import type { Database } from "../db/database.js";
import { DEACTIVATE_UNUSED_SQL, DECAY_SQL, EXPIRED_CONFIRMATIONS_SQL, EXPIRE_SQL, PURGE_CANDIDATES_SQL } from "../retention/retention-queries.js";

/** The sweep's actions, in the order `RetentionSweep.run` performs them. */
export const SWEEP_STEPS = [
  { name: "expire", sql: EXPIRE_SQL },
  { name: "deactivate unused", sql: DEACTIVATE_UNUSED_SQL },
  { name: "decay", sql: DECAY_SQL },
  { name: "purge opted-out users", sql: PURGE_CANDIDATES_SQL },
  { name: "expired confirmations", sql: EXPIRED_CONFIRMATIONS_SQL },
] as const;

/**
 * The database, seen through a window that reports which sweep action is running: each action's
 * first batch statement marks the ones before it as done. The sweep has no progress callback of
 * its own, and its statements are the named constants it exports, so this observes without
 * changing what runs. (Everything else — transactions, purges — passes straight through.)
 */
export function observeSweepSteps(db: Database, onStep: (index: number) => void): Database {
  let current = -1;
  const query: Database["query"] = (sql, params, options) => {
    const index = SWEEP_STEPS.findIndex((s) => s.sql === sql);
    if (index > current) {
      current = index;
      onStep(index);
    }
    return db.query(sql, params, options);
  };
  return new Proxy(db, {
    get(target, prop) {
      if (prop === "query") return query;
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
