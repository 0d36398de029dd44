/**
 * An accepted `forget` candidate deletes what it names — conservatively. A memory is deleted only
 * when it holds every content word of the request with the same polarity, or when the request
 * names a whole slot ("forget my phone number") and the memory belongs to that slot. The history
 * goes too: superseded and expired versions are matched like active ones. "Forget everything"
 * deletes nothing here: it is recorded and handed to the confirmed delete-all path.
 */
import { MEMORY_KINDS } from "../../state/types.js";
import type { MemoryCandidate } from "../../core/candidate.js";
import { findMemoriesWithWords, findSlotMemories } from "./memory-lookups.js";
import { profileFieldFor } from "./profile-fields.js";
import { isSlotWideRequest, matchesForgetRequest } from "./statement-match.js";
import { changeSourceOf, type WriteRun } from "./write-run.js";
import { staleTerms } from "../../sessions/stale-terms.js";
import { withdrawalOf } from "../../sessions/withdrawal.js";
import { forgetEverywhere, profileChangeWithdrawal } from "../../forgetting/forget-everywhere.js";
import { withdrawalForMemories } from "../../forgetting/memory-withdrawal.js";

export async function applyForget(run: WriteRun, c: MemoryCandidate): Promise<void> {
  const { report, targets, db } = run;
  const scope = run.attribution.scope;
  const source = changeSourceOf(run, c);
  if (c.subject === "*") {
    report.forgetAllRequested++;
    await targets.controls?.requestDeleteAll(scope, source);
    return;
  }

  let profileChanged = false;
  const forgottenFields: Array<{ field: string; from: unknown }> = [];
  const ids = new Set<string>();
  if (c.subject) {
    const mapping = targets.profile ? profileFieldFor(c.subject, targets.profile.fields, run.mappings) : undefined;
    if (mapping && targets.profile) {
      const before = targets.profile.getDocument ? (await targets.profile.getDocument(scope))?.[mapping.field] : undefined;
      await targets.profile.applyPatch(scope, { [mapping.field]: null }, source);
      forgottenFields.push({ field: mapping.field, from: before });
      report.profileFieldsChanged++;
      profileChanged = true;
    }
    const slotWide = isSlotWideRequest(c.text);
    for (const m of await findSlotMemories(db, scope, c.subject, MEMORY_KINDS, { includeInactive: true })) {
      if (slotWide || matchesForgetRequest(m.text, c.text)) ids.add(m.id);
    }
  }
  // Full-text prefilter on the request's words (without "User"), then the exact check on each text.
  const words = c.text.replace(/\b(?:the\s+)?user(?:'s)?\b/gi, " ");
  for (const m of await findMemoriesWithWords(db, scope, words, MEMORY_KINDS)) {
    if (matchesForgetRequest(m.text, c.text)) ids.add(m.id);
  }

  // What the user withdrew leaves everything that quotes it (past sessions, summaries, the profile,
  // queued work): the names and values the request gives, and the texts of the memories it deletes.
  const withdrawn = staleTerms(c.text, "");
  const via = `${run.attribution.writer}.forget`;
  const exceptJobId = run.attribution.jobId ?? null;
  // A profile field the request named: its old value leaves the sessions and summaries too.
  const fromProfile = profileChangeWithdrawal(forgottenFields);
  if (fromProfile.profileValues.length > 0) await forgetEverywhere({ db, store: run.store }, scope, fromProfile.withdrawal, { via, exceptJobId, profileValues: fromProfile.profileValues });
  if (ids.size === 0) {
    const changed = withdrawn.length > 0 ? await forgetEverywhere({ db, store: run.store }, scope, withdrawalOf([], withdrawn), { via, exceptJobId }) : null;
    const quoted = changed ? Object.values(changed).some((n) => n > 0) : false;
    if (!profileChanged && !quoted) report.forgetUnmatched++;
    return;
  }
  const list = [...ids];
  let deleted = 0;
  if (targets.controls) deleted = await targets.controls.deleteMemories(scope, list, source, { exceptJobId, terms: withdrawn });
  else {
    const w = await db.transaction((tx) => withdrawalForMemories(tx, scope, list, { terms: withdrawn }), { scope });
    await forgetEverywhere({ db, store: run.store }, scope, w, { via, exceptJobId });
    for (const id of list) if (await run.store.delete(scope, id, { via })) deleted++;
  }
  report.deleted += deleted;
  report.deletedIds.push(...list);
}
