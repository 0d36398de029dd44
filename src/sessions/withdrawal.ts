/**
 * What a forgotten (deleted, edited away or superseded) statement leaves behind, as something a
 * sentence can be checked against without keeping the statement. Pure.
 *
 * A withdrawal is a list of cues; a cue is a set of word fingerprints, and a sentence (or a list
 * entry such as a summary's "Porto") states the withdrawn fact when it holds every word of some
 * cue. The cues of a statement: all its content words together ("User lives in Porto." → {live,
 * porto}: "I live in Porto" goes, "Porto is lovely" stays), and each of its values alone — names,
 * numbers with their unit, e-mail addresses ("Porto", "3 kids"), so a summary's entity list loses
 * "Porto" too. A supersede withdraws what the old statement said that the new one does not, and
 * protects sentences that state the new value ("moved from Porto to Lisbon" stays when "lives in
 * Porto" becomes "lives in Lisbon").
 *
 * Words are compared as stemmed, case- and accent-folded content words (the offline embedder's
 * `stemmedTerms`), and stored as fingerprints (truncated SHA-256): a past session that must keep
 * dropping a withdrawn sentence on re-indexing records fingerprints, never the words. (A word list
 * could still be guessed against them; they are not encryption, only not the text.)
 */
import { createHash } from "node:crypto";
import { stemmedTerms } from "../embeddings/text-features.js";
import { staleTerms } from "./stale-terms.js";

/** A set of word fingerprints that, all present, make a sentence state a withdrawn fact. */
export type Cue = readonly string[];

export interface Withdrawal {
  /** Whole statements: a sentence holding every word of one of these states the fact. Applied everywhere. */
  cues: Cue[];
  /**
   * Single values of the statements (a name, a number with its unit) and loose terms: they also
   * mark a sentence or list entry of a conversation's summary ("Places: Porto"), but are not
   * applied to structured data (a profile's "Europe/Paris" is not "lives in Paris near the canal")
   * nor to queued turns, where they would take unrelated sentences with them.
   */
  values: Cue[];
  /** …unless they hold every word of one of these (the replacement's values). */
  protect: Cue[];
  /** Ids of the memories withdrawn (list items carrying them go, whatever their text). */
  ids: string[];
}

/** One statement withdrawn: its old text, and for a supersede or an edit the text that replaces it. */
export interface WithdrawnStatement {
  text: string;
  replacedBy?: string | null;
  id?: string;
}

const FILLER = new Set(["user"]);

/** The fingerprint of one folded, stemmed word. */
export function wordFingerprint(word: string): string {
  return createHash("sha256").update(`langgraph-memory:withdrawn\0${word}`).digest("hex").slice(0, 16);
}

/** The fingerprints of a text's content words, in order (duplicates kept). */
export function wordFingerprints(text: string): string[] {
  return stemmedTerms(text)
    .filter((w) => !FILLER.has(w))
    .map(wordFingerprint);
}

/** A cue from a phrase (all its content words), or null when it has none. */
export function cueOf(phrase: string): Cue | null {
  const words = [...new Set(wordFingerprints(phrase))];
  return words.length > 0 ? words : null;
}

/**
 * The withdrawal of some statements (and of loose terms, e.g. the names a "forget everything about
 * Tobias" request gives).
 *
 * @example
 * const w = withdrawalOf([{ text: "User lives in Porto.", replacedBy: "User lives in Lisbon." }]);
 * statesWithdrawn("I live in Porto.", w) // true
 * statesWithdrawn("We moved from Porto to Lisbon.", w) // false (states the replacement)
 */
export function withdrawalOf(statements: readonly WithdrawnStatement[], terms: readonly string[] = []): Withdrawal {
  const cues: Cue[] = [];
  const values: Cue[] = [];
  const protect: Cue[] = [];
  const ids: string[] = [];
  const add = (list: Cue[], cue: Cue | null) => {
    if (cue && !list.some((c) => c.length === cue.length && c.every((w) => cue.includes(w)))) list.push(cue);
  };
  for (const s of statements) {
    if (s.id) ids.push(s.id);
    const current = s.replacedBy ?? "";
    const currentWords = new Set(wordFingerprints(current));
    const whole = cueOf(s.text);
    // A replacement that still says all of it withdraws nothing of it.
    if (whole && !whole.every((w) => currentWords.has(w))) add(cues, whole);
    for (const value of staleTerms(s.text, current)) add(values, cueOf(value));
    if (current) for (const value of staleTerms(current, s.text)) add(protect, cueOf(value));
  }
  for (const t of terms) add(values, cueOf(t));
  return { cues, values, protect, ids };
}

/** Both withdrawals at once. */
export function mergeWithdrawals(a: Withdrawal, b: Withdrawal): Withdrawal {
  return { cues: [...a.cues, ...b.cues], values: [...a.values, ...b.values], protect: [...a.protect, ...b.protect], ids: [...new Set([...a.ids, ...b.ids])] };
}

export function isEmptyWithdrawal(w: Withdrawal): boolean {
  return w.cues.length === 0 && w.values.length === 0 && w.ids.length === 0;
}

/** How strictly to match: `statements` (whole statements only) or `values` too (conversation text, default). */
export interface MatchOptions {
  values?: boolean;
}

/** True when `text` (one sentence or list entry) states a withdrawn fact and not its replacement. */
export function statesWithdrawn(text: string, w: Withdrawal, options: MatchOptions = {}): boolean {
  const useValues = options.values ?? true;
  if ((w.cues.length === 0 && (!useValues || w.values.length === 0)) || typeof text !== "string" || text === "") return false;
  const words = new Set(wordFingerprints(text));
  const holds = (cue: Cue) => cue.every((f) => words.has(f));
  return (w.cues.some(holds) || (useValues && w.values.some(holds))) && !w.protect.some(holds);
}

/**
 * `text` without the sentences that state a withdrawn fact. Lines keep their label ("User: …",
 * "Places: …") while a sentence of theirs is left, and a line with none left goes; sentences end at
 * . ! ? … and list entries at ";". Returns `text` itself when nothing goes.
 *
 * @example
 * dropWithdrawn("User: I'm vegetarian and I live in Porto. My bike got stolen.", withdrawalOf([{ text: "User lives in Porto." }]))
 * // "User: My bike got stolen."
 */
export function dropWithdrawn(text: string, w: Withdrawal, options: MatchOptions = {}): string {
  if ((w.cues.length === 0 && ((options.values ?? true) === false || w.values.length === 0)) || typeof text !== "string" || text === "") return text;
  let changed = false;
  const lines: string[] = [];
  for (const line of text.split("\n")) {
    const label = /^((?:User|Assistant|[\p{L}\p{N} .-]{1,40}):\s+)/u.exec(line)?.[1] ?? "";
    const body = line.slice(label.length);
    const parts = body.split(/(?<=[.!?…;])\s+/);
    const kept = parts.filter((p) => p.trim() === "" || !statesWithdrawn(p, w, options));
    if (kept.length === parts.length) {
      lines.push(line);
      continue;
    }
    changed = true;
    const rest = kept.join(" ").trim().replace(/;$/, "").trim();
    if (rest !== "") lines.push(`${label}${rest}`);
  }
  return changed ? lines.join("\n").trim() : text;
}

/** Metadata key of the withdrawal a past-session memory records (fingerprints only), so re-indexing its thread keeps the sentences out. */
export const WITHDRAWN_KEY = "withdrawn";
/** Legacy metadata key: plain withdrawn terms, as older versions recorded them (read, then replaced). */
const LEGACY_TERMS_KEY = "withdrawnTerms";
/** Cues kept per session (the newest): bounded metadata. */
const MAX_STORED_CUES = 200;

const isFingerprintList = (v: unknown): v is string[] => Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "string" && /^[0-9a-f]{16}$/.test(x));

/** The withdrawal a memory's metadata records (its fingerprints, and any legacy plain terms). */
export function storedWithdrawal(metadata: Record<string, unknown> | null | undefined): Withdrawal {
  const stored = metadata?.[WITHDRAWN_KEY] as { cues?: unknown; protect?: unknown } | undefined;
  const cues = Array.isArray(stored?.cues) ? stored!.cues.filter(isFingerprintList) : [];
  const protect = Array.isArray(stored?.protect) ? stored!.protect.filter(isFingerprintList) : [];
  const legacy = Array.isArray(metadata?.[LEGACY_TERMS_KEY]) ? (metadata![LEGACY_TERMS_KEY] as unknown[]).filter((t): t is string => typeof t === "string") : [];
  return mergeWithdrawals({ cues, values: [], protect, ids: [] }, withdrawalOf([], legacy));
}

/** `metadata` recording `w` besides what it recorded (fingerprints only; legacy plain terms dropped). */
export function recordWithdrawal(metadata: Record<string, unknown>, w: Withdrawal): Record<string, unknown> {
  const all = mergeWithdrawals(storedWithdrawal(metadata), { ...w, ids: [] });
  const dedupe = (list: Cue[]) => [...new Map(list.map((c) => [[...c].sort().join(","), [...c]])).values()].slice(-MAX_STORED_CUES);
  const { [LEGACY_TERMS_KEY]: _legacy, ...rest } = metadata;
  void _legacy;
  // A session is conversation text: its values are recorded as cues of their own.
  return { ...rest, [WITHDRAWN_KEY]: { cues: dedupe([...all.cues, ...all.values]), protect: dedupe(all.protect) } };
}
