/**
 * The viewer's files (`static/` in the package): a fixed list, read once at startup, served from
 * memory with an ETag. No directory listing, no path from the URL ever reaches the file system.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../db/package-root.js";
import { ErrorCodes, MemoryError } from "../errors.js";

export interface StaticAsset {
  /** URL path relative to the server's prefix, e.g. "/" or "/viewer.js". */
  path: string;
  body: Buffer;
  contentType: string;
  etag: string;
}

/** The viewer's files and the URL path each is served at. */
export const VIEWER_FILES: ReadonlyArray<{ file: string; path: string; contentType: string }> = [
  { file: "index.html", path: "/", contentType: "text/html; charset=utf-8" },
  { file: "viewer.js", path: "/viewer.js", contentType: "text/javascript; charset=utf-8" },
  { file: "viewer.css", path: "/viewer.css", contentType: "text/css; charset=utf-8" },
  { file: "favicon.svg", path: "/favicon.svg", contentType: "image/svg+xml" },
];

/** The default folder of the viewer's files: `static/` beside the package's package.json. */
export function defaultStaticDir(): string {
  return join(packageRoot(), "static");
}

/** Read the viewer's files; CONFIG_INVALID when one is missing (a broken install). */
export function loadViewerAssets(dir = defaultStaticDir()): StaticAsset[] {
  return VIEWER_FILES.map(({ file, path, contentType }) => {
    let body: Buffer;
    try {
      body = readFileSync(join(dir, file));
    } catch (err) {
      throw new MemoryError(ErrorCodes.CONFIG_INVALID, `the memory viewer's file ${file} is missing in ${dir} (${(err as NodeJS.ErrnoException).code ?? "unreadable"}); reinstall the package or pass viewer: false`);
    }
    const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
    return { path, body, contentType, etag };
  });
}

/** Does an If-None-Match header match this ETag? */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((t) => {
    const tag = t.trim();
    return tag === "*" || tag === etag || tag === `W/${etag}`;
  });
}
