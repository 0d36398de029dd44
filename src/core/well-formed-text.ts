import { invalidInput } from "../errors.js";

/**
 * Unpaired UTF-16 surrogates: half of a character outside the Basic Multilingual Plane (an emoji
 * cut in two by a careless `slice`, a hand-written `"\uD800"`). Both database drivers encode
 * strings as UTF-8, which cannot hold them, and silently write U+FFFD instead — so `"t\uD800"` and
 * `"t\uDBFF"` would be stored as the same tenant, and a text would not read back as written.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, "g");

/**
 * `text` as Postgres can store it, for text that comes from a conversation (a message is kept,
 * not refused): NUL characters removed (text and jsonb cannot hold U+0000) and unpaired surrogates
 * replaced by U+FFFD (what `String.prototype.toWellFormed` does; UTF-8 cannot hold them). Returns
 * `text` itself when there is nothing to change.
 *
 * @example
 * storableText("I live in Porto.\u0000 Half \uD800 an emoji") // "I live in Porto. Half \uFFFD an emoji"
 */
export function storableText(text: string): string {
  const noNul = text.includes("\0") ? text.replace(/\0/g, "") : text;
  return LONE_SURROGATE.test(noNul) ? noNul.replace(LONE_SURROGATES, "\uFFFD") : noNul;
}

/** True when `text` is well-formed UTF-16 (every surrogate has its partner); what `String.prototype.isWellFormed` answers. */
export function isWellFormedText(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/**
 * Refuse a string that is not well-formed UTF-16 with INVALID_INPUT naming `field` (never echoing
 * the value). Ids, namespace labels and texts are checked where they enter the library, before
 * anything is written or compared.
 *
 * @example
 * checkWellFormed("t\uD800", "scope.tenantId"); // throws INVALID_INPUT "scope.tenantId: contains an unpaired UTF-16 surrogate …"
 */
export function checkWellFormed(text: string, field: string): string {
  if (!LONE_SURROGATE.test(text)) return text;
  throw invalidInput(
    field,
    "contains an unpaired UTF-16 surrogate (half of a character such as an emoji); it cannot be stored as UTF-8 without changing — send the whole character or remove the half",
  );
}

/**
 * Refuse an id (tenant, user, thread, item key) that is not well-formed, holds a NUL, or starts with a
 * byte-order mark (U+FEFF): the embedded engine (PGlite 0.5.14) drops a leading BOM from every
 * text value it returns, so such an id would be written as given but read back as another id — a
 * job or a sweep acting on the id it read would act for someone else. No real id starts with one.
 *
 * @example
 * checkIdText("\uFEFFacme", "scope.tenantId"); // throws INVALID_INPUT "scope.tenantId: starts with a byte-order mark …"
 */
export function checkIdText(id: string, field: string): string {
  checkWellFormed(id, field);
  // Postgres text cannot hold U+0000: the driver's error would say nothing about which id.
  if (id.includes("\0")) throw invalidInput(field, "must not contain NUL characters (U+0000), which Postgres text cannot hold — remove them");
  if (id.charCodeAt(0) === 0xfeff) {
    throw invalidInput(field, "starts with a byte-order mark (U+FEFF), which the embedded engine drops when it reads a value back — remove it");
  }
  return id;
}
