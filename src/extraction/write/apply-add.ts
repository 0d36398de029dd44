/**
 * An accepted `add` candidate meets what is stored: a proposed rule (procedures), a profile field
 * (name, timezone, units, …), or a memory — collapsed into a near-duplicate, superseding the old
 * value of its slot or the statement it negates, or added.
 */
import { ErrorCodes, isMemoryError } from "../../errors.js";
import type { MemoryKind } from "../../state/types.js";
import type { Memory, MemoryPatch, NewMemory } from "../../store/types.js";
import type { MemoryCandidate } from "../../core/candidate.js";
import { deterministicMemoryId } from "./deterministic-id.js";
import { findSlotMemories, linkSuperseded } from "./memory-lookups.js";
import { profileFieldFor, type ProfileFieldMapping } from "./profile-fields.js";
import { containsAll, coreTerms, isNegated, normaliseStatement, sameTerms } from "./statement-match.js";
import { slotKeyOf } from "../write-policy.js";
import { changeSourceOf, originOf, runIdOf, takeReplacedInBatch, type WriteRun } from "./write-run.js";
import { isEmptyWithdrawal, mergeWithdrawals, withdrawalOf } from "../../sessions/withdrawal.js";
import { isSessionMemory } from "../../sessions/session-metadata.js";
import { forgetEverywhere, profileChangeWithdrawal } from "../../forgetting/forget-everywhere.js";
import { JOB_CREATED_AT_SQL } from "./apply-add-queries.js";

const DAY_MS = 86_400_000;

/** Kinds that share subject slots: a fact and a preference about the same slot are one value. */
export function slotKinds(kind: MemoryKind): MemoryKind[] {
  return kind === "fact" || kind === "preference" ? ["fact", "preference"] : [kind];
}

export async function applyAdd(run: WriteRun, c: MemoryCandidate): Promise<void> {
  const rules = run.targets.rules;
  if (c.kind === "procedure" && rules) {
    // Procedures are proposed: a rule reaches the prompt once approved.
    const proposed = await rules.propose(run.attribution.scope, { text: c.text, source: c.explicit ? "feedback" : "learned", origin: changeSourceOf(run, c) });
    if (proposed.created) run.report.rulesProposed++;
    else run.report.deduped++;
    // A standing instruction the user gave in their own words (not one inferred, nor a tool's).
    const stated = c.explicit === true && c.source === "user" && run.attribution.writer === "extraction";
    if (!stated || proposed.state === "approved") return;
    if (run.policy.approveStatedRules && rules.approve) {
      // The app lets the user be the reviewer of what they stated.
      await rules.approve(run.attribution.scope, proposed.id, { reviewer: "user" });
      run.report.rulesApproved++;
      return;
    }
    // Awaiting review, the rule reaches no prompt: keep what the user asked for as a preference
    // (retrieved like any other) that points at the rule; the rule store deletes it once the rule is
    // approved or revoked, so it is never rendered beside its rule.
    await writeMemory(run, { ...c, kind: "preference" }, { ruleId: proposed.id });
    return;
  }
  if (!(await writeProfileField(run, c))) await writeMemory(run, c);
  // What the batch said of the slot before ("I live in Porto" … "actually we moved to Lisbon") was
  // never stored, but the conversation still quotes it: withdraw it as a replaced value, unless the
  // write's own withdrawal (a superseded or retired value) already carried it.
  if (run.replacedInBatch?.has(slotKeyOf(c))) await withdrawStale(run, c, []);
}

/** A fact or preference whose slot is a profile field goes to the profile (and only there). */
async function writeProfileField(run: WriteRun, c: MemoryCandidate): Promise<boolean> {
  const profile = run.targets.profile;
  if (!profile || (c.kind !== "fact" && c.kind !== "preference")) return false;
  const mapping = profileFieldFor(c.subject, profile.fields, run.mappings);
  if (!mapping) return false;
  const scope = run.attribution.scope;
  const value = mapping.parse(c.text);
  if (value === undefined || value === null || value === "") {
    await removeDeniedField(run, c, mapping);
    return false;
  }
  const before = profile.getDocument ? (await profile.getDocument(scope))?.[mapping.field] : undefined;
  try {
    await profile.applyPatch(scope, { [mapping.field]: value }, changeSourceOf(run, c));
  } catch (err) {
    // The app's schema refused the value ("Berlin time" as a timezone): keep it as a memory instead.
    if (isMemoryError(err, ErrorCodes.INVALID_INPUT)) return false;
    throw err;
  }
  run.report.profileFieldsChanged++;
  // Older memories of the slot would now contradict the profile in prompts: retire them (kept for export).
  const stale = await findSlotMemories(run.db, scope, c.subject!, slotKinds(c.kind), { now: run.now });
  for (const m of stale) {
    await run.store.update(scope, m.id, { expiresAt: run.now, metadata: { ...m.metadata, retiredBy: `profile.${mapping.field}` } });
  }
  if (stale.length > 0) run.report.superseded++;
  await withdrawStale(run, c, stale, [{ field: mapping.field, from: before, to: value }]);
  return true;
}

/** Add (or collapse into, or supersede with) a memory; `extra` goes into the memory's metadata. */
/**
 * "I don't work at Acme any more" while the profile says Acme: the field goes (the statement itself
 * is still kept as a memory by the caller). Needs a profile target that can read the document.
 */
async function removeDeniedField(run: WriteRun, c: MemoryCandidate, mapping: ProfileFieldMapping): Promise<void> {
  const profile = run.targets.profile;
  const deniedValue = mapping.denies?.(c.text);
  if (!profile?.getDocument || !deniedValue) return;
  const scope = run.attribution.scope;
  const current = (await profile.getDocument(scope))?.[mapping.field];
  if (typeof current !== "string" || current.trim().toLowerCase() !== deniedValue.trim().toLowerCase()) return;
  await profile.applyPatch(scope, { [mapping.field]: null }, changeSourceOf(run, c));
  run.report.profileFieldsChanged++;
  await withdrawStale(run, c, [], [{ field: mapping.field, from: current }]);
}

async function writeMemory(run: WriteRun, c: MemoryCandidate, extra: Record<string, unknown> = {}): Promise<void> {
  const { store, db, report, policy } = run;
  const { scope, writer, threadId } = run.attribution;
  const id = deterministicMemoryId([scope.tenantId, scope.userId, writer, threadId, c.sourceMessageId, c.kind, normaliseStatement(c.text)]);
  // A retried pass (the worker died after writing, before completing the job) finds its own write.
  if (await store.get(scope, id)) {
    report.deduped++;
    report.memoryIds.push(id);
    return;
  }
  const [vector] = await store.vectorsFor([{ text: c.text }]);
  const negated = isNegated(c.text);
  const terms = coreTerms(c.text);
  const near = await store.nearest(scope, { kind: c.kind, embedding: vector, limit: 5 });
  const similarity = new Map(near.map((n) => [n.memory.id, n.similarity]));
  const sameStatement = (m: Memory) =>
    isNegated(m.text) === negated &&
    (normaliseStatement(m.text) === normaliseStatement(c.text) || (similarity.get(m.id) ?? 0) >= policy.dedupeThreshold || sameTerms(coreTerms(m.text), terms));

  if (c.subject && c.subject !== "*") {
    const slot = await findSlotMemories(db, scope, c.subject, slotKinds(c.kind), { now: run.now });
    const duplicate = slot.find(sameStatement);
    if (duplicate) return collapse(run, duplicate, c, extra);
    // A new value replaces the slot's old one ("moved to Lisbon" → "lives in Berlin"). A negation
    // replaces only the value it negates: "no longer works at Acme" leaves "works at Spotify" alone.
    const replaced = negated ? slot.filter((m) => !isNegated(m.text) && containsAll(coreTerms(m.text), terms)) : slot;
    if (replaced.length > 0) return supersede(run, c, id, vector, replaced, extra);
  }

  const compatible = (m: Memory) => !(typeof m.metadata.subject === "string" && c.subject && m.metadata.subject !== c.subject);
  const best = near[0];
  if (best && best.similarity >= policy.dedupeThreshold && isNegated(best.memory.text) === negated && compatible(best.memory)) {
    return collapse(run, best.memory, c, extra);
  }
  // A correction without a slot: the negation of a stored statement (or its reversal) replaces it,
  // "User no longer likes ramen." → "User likes ramen.". Same content words, opposite polarity.
  const opposite = near.find((n) => isNegated(n.memory.text) !== negated && sameTerms(coreTerms(n.memory.text), terms) && compatible(n.memory));
  if (opposite) return supersede(run, c, id, vector, [opposite.memory], extra);

  const created = await store.add(scope, newMemory(run, c, id, vector, extra));
  report.added++;
  report.memoryIds.push(created.id);
}

/** The candidate says what a stored memory says: refresh it (confidence, last seen, episode TTL, archived) instead of adding a row. */
async function collapse(run: WriteRun, m: Memory, c: MemoryCandidate, extra: Record<string, unknown> = {}): Promise<void> {
  const { report } = run;
  report.deduped++;
  report.memoryIds.push(m.id);
  const meta = m.metadata;
  const seenFrom = `${run.attribution.threadId ?? ""}/${c.sourceMessageId}`;
  if (meta.lastSeenFrom === seenFrom) return; // the same statement again (a retried pass): nothing to refresh
  const patch: MemoryPatch = {
    confidence: Math.max(m.confidence, c.confidence),
    metadata: {
      ...meta,
      ...extra,
      ...(c.subject && c.subject !== "*" && typeof meta.subject !== "string" ? { subject: c.subject } : {}),
      seenCount: (typeof meta.seenCount === "number" ? meta.seenCount : 1) + 1,
      lastSeenAt: run.now.toISOString(),
      lastSeenFrom: seenFrom,
    },
  };
  if (m.kind === "episode") {
    const renewed = new Date(run.now.getTime() + run.policy.episodeTtlDays * DAY_MS);
    if (!m.expiresAt || m.expiresAt < renewed) patch.expiresAt = renewed;
  }
  // Said again, it is in use again: an archived memory comes back.
  if (m.archivedAt) patch.archived = false;
  await run.store.update(run.attribution.scope, m.id, patch);
}

async function supersede(run: WriteRun, c: MemoryCandidate, id: string, vector: number[], replaced: Memory[], extra: Record<string, unknown> = {}): Promise<void> {
  const scope = run.attribution.scope;
  const { current } = await run.store.supersede(scope, replaced[0].id, newMemory(run, c, id, vector, extra));
  await linkSuperseded(run.db, scope, replaced.slice(1).map((m) => m.id), current.id);
  run.report.superseded++;
  run.report.memoryIds.push(current.id);
  await withdrawStale(run, c, replaced);
}

/**
 * What the replaced memories said and the new one does not stops being quoted (past sessions, the
 * rolling summaries and memory channels of the user's threads, the profile history): "I live in
 * Prenzlauer Berg" after the move. Sentences that state the new value stay ("moved from Prenzlauer
 * Berg to Lisbon"), and turns queued before this pass's own lose it too.
 */
async function withdrawStale(run: WriteRun, c: MemoryCandidate, replaced: readonly Memory[], profileChanges: ReadonlyArray<{ field: string; from: unknown; to?: unknown }> = []): Promise<void> {
  const current = c.text;
  const fromMemories = withdrawalOf([
    ...replaced.filter((m) => !isSessionMemory(m)).map((m) => ({ id: m.id, text: m.text, replacedBy: current })),
    // What the batch said of the slot before `c`, never stored (WriteRun.replacedInBatch).
    ...takeReplacedInBatch(run, c).map((text) => ({ text, replacedBy: current })),
  ]);
  const { withdrawal: fromProfile, profileValues } = profileChangeWithdrawal(profileChanges);
  const w = mergeWithdrawals(fromMemories, fromProfile);
  if (isEmptyWithdrawal(w) && profileValues.length === 0) return;
  // Queued work older than this pass's own turns would bring the old value back; newer work may be a
  // correction of the correction, left to the write policy.
  const jobId = run.attribution.jobId ?? null;
  const queuedBefore = jobId === null ? run.now : ((await run.db.query<{ at: Date | string }>(JOB_CREATED_AT_SQL, [jobId])).rows[0]?.at ?? run.now);
  await forgetEverywhere({ db: run.db, store: run.store }, run.attribution.scope, w, {
    via: `${run.attribution.writer}.supersede`,
    jobs: { queuedBefore: new Date(queuedBefore) },
    exceptJobId: jobId,
    profileValues,
  });
}

function newMemory(run: WriteRun, c: MemoryCandidate, id: string, vector: number[], extra: Record<string, unknown> = {}): NewMemory {
  const createdAt = run.createdAtOf?.(c);
  return {
    id,
    kind: c.kind,
    text: c.text,
    embedding: vector,
    confidence: c.confidence,
    source: { threadId: run.attribution.threadId ?? null, messageId: c.sourceMessageId, runId: runIdOf(run, c), origin: originOf(run, c) },
    ...(createdAt ? { createdAt } : {}),
    expiresAt: c.kind === "episode" ? new Date(run.now.getTime() + run.policy.episodeTtlDays * DAY_MS) : null,
    metadata: {
      ...(c.subject && c.subject !== "*" ? { subject: c.subject } : {}),
      writer: run.attribution.writer,
      extractor: c.extractor,
      ...(c.explicit ? { explicit: true } : {}),
      ...(c.correction ? { correction: true } : {}),
      ...(run.attribution.jobId != null ? { jobId: run.attribution.jobId } : {}),
      seenCount: 1,
      lastSeenFrom: `${run.attribution.threadId ?? ""}/${c.sourceMessageId}`,
      ...extra,
    },
  };
}
