/**
 * An accepted `forget` candidate deletes what it names — conservatively. A memory is deleted only
 * when it holds every content word of the request with the same polarity, or when the request
 * names a whole slot ("forget my phone number") and the memory belongs to that slot. The history
 * goes too: superseded and expired versions are matched like active ones. "Forget everything"
 * deletes nothing here: it is recorded and handed to the confirmed delete-all path.
 */
import { MEMORY_KINDS } from "../../state/types.js";
import type { MemoryCandidate } from "../candidate.js";
import { findMemoriesWithWords, findSlotMemories } from "./memory-lookups.js";
import { profileFieldFor } from "./profile-fields.js";
import { isSlotWideRequest, matchesForgetRequest } from "./statement-match.js";
import { changeSourceOf, type WriteRun } from "./write-run.js";
import { staleTerms, withdrawFromSessions } from "../../sessions/withdrawn-statements.js";

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
  const ids = new Set<string>();
  if (c.subject) {
    const mapping = targets.profile ? profileFieldFor(c.subject, targets.profile.fields, run.mappings) : undefined;
    if (mapping && targets.profile) {
      await targets.profile.applyPatch(scope, { [mapping.field]: null }, source);
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

  // What the user withdrew leaves their past sessions too (the names and values it gives).
  const withdrawn = staleTerms(c.text, "");
  const sessionsChanged = withdrawn.length > 0 ? await withdrawFromSessions(run.store, scope, withdrawn, "all") : 0;
  if (ids.size === 0) {
    if (!profileChanged && sessionsChanged === 0) report.forgetUnmatched++;
    return;
  }
  const list = [...ids];
  let deleted = 0;
  if (targets.controls) deleted = await targets.controls.deleteMemories(scope, list, source);
  else for (const id of list) if (await run.store.delete(scope, id, { via: `${run.attribution.writer}.forget` })) deleted++;
  report.deleted += deleted;
  report.deletedIds.push(...list);
}
