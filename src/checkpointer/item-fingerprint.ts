/**
 * What identifies an array element between two versions of a channel. Elements are matched by
 * object identity (LangGraph's reducers build new arrays but keep the message objects), and the
 * fingerprint catches the in-place edits that happen in practice: the messages reducer assigning
 * an `id` to a message that lacked one, or code replacing a message's `content`.
 */
export type Fingerprint = readonly [unknown, unknown];

export function fingerprintOf(item: unknown): Fingerprint {
  if (item !== null && typeof item === "object") {
    const o = item as { id?: unknown; content?: unknown };
    return [o.id, o.content];
  }
  return [item, undefined];
}

export function sameFingerprint(a: Fingerprint, b: Fingerprint): boolean {
  return a[0] === b[0] && a[1] === b[1];
}
