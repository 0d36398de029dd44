/** One server-sent event: its `event` name and its `data` lines joined. */
export interface SseEvent {
  event: string;
  data: string;
}

/** The events of a complete `text/event-stream` body. */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    let event = "message";
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
    if (data.length > 0) events.push({ event, data: data.join("\n") });
  }
  return events;
}

/**
 * What `runs.wait` answers for a finished stream, as the stock server does: the last `values`
 * event, or `{ __error__ }` when the run failed (the SDK raises it with `raiseError`).
 */
export function waitResultOf(events: SseEvent[]): unknown {
  let last: unknown = null;
  for (const e of events) {
    if (e.event === "error") return { __error__: JSON.parse(e.data) };
    if (e.event === "values") last = JSON.parse(e.data);
  }
  return last;
}
