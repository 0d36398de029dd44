import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";

// Per-connection headers that must not be forwarded between the two HTTP models.
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection"]);

/**
 * A Node `http` request listener that answers with a fetch-style handler (a Hono app's `fetch`).
 * Bodies stream both ways, so server-sent events reach the client as they are written; when the
 * client goes away, the request's signal aborts (a streaming run stops).
 */
export function nodeRequestListener(handle: (request: Request) => Response | Promise<Response>): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    respond(req, res, handle).catch((err) => {
      if (!res.headersSent) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: "internal error" }));
      } else {
        res.destroy(err as Error);
      }
    });
  };
}

async function respond(req: IncomingMessage, res: ServerResponse, handle: (request: Request) => Response | Promise<Response>): Promise<void> {
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (!HOP_BY_HOP.has(req.rawHeaders[i].toLowerCase())) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  }
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  const request = new Request(new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`), {
    method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    signal: controller.signal,
    // Required by fetch for a streamed request body.
    ...({ duplex: "half" } as object),
  });
  const response = await handle(request);
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie" && !HOP_BY_HOP.has(name)) res.setHeader(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  res.writeHead(response.status);
  if (!response.body || method === "HEAD") {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  controller.signal.addEventListener("abort", () => void reader.cancel().catch(() => undefined), { once: true });
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!res.write(value)) await new Promise<void>((resolve) => (res.writableNeedDrain ? res.once("drain", resolve).once("close", resolve) : resolve()));
  }
  res.end();
}
