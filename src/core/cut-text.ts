/**
 * A text cut to about `maxChars`: its start and its end (a quarter of the kept characters) around a
 * marker that says how much was left out; the text itself when it fits. For readers that can use
 * only so much of one message (a summariser, an extractor): a pasted document or log keeps what
 * the user wrote around it, and a reader's cost stays bounded however long the message.
 *
 * @example
 * keepStartAndEnd("a".repeat(50_000), 20_000) // "aaa…\n[… 30,000 characters left out …]\naaa…"
 */
export function keepStartAndEnd(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const tail = Math.floor(maxChars / 4);
  const head = maxChars - tail;
  return `${text.slice(0, head)}\n[… ${(text.length - maxChars).toLocaleString("en-US")} characters left out …]\n${text.slice(text.length - tail)}`;
}
