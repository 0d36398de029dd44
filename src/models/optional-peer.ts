import { ErrorCodes, MemoryError } from "../errors.js";

/** What to install for each optional peer (Node 20: @langchain/openai 1.5.9 and later require Node 22). */
const INSTALL_HINTS: Record<string, string> = {
  langchain: "npm i langchain",
  "@langchain/openai": "npm i @langchain/openai (on Node 20: npm i @langchain/openai@1.5.8, the last release that supports it)",
  "@langchain/langgraph-api": "npm i -D @langchain/langgraph-cli (it brings @langchain/langgraph-api, hono and tsx)",
  hono: "npm i hono (it comes with @langchain/langgraph-cli)",
  tsx: "npm i -D tsx (it comes with @langchain/langgraph-cli)",
};

/** The import failed because the package itself is not installed (not because something inside it failed). */
export function isMissingPackage(err: unknown, name: string): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return !!e && e.code === "ERR_MODULE_NOT_FOUND" && typeof e.message === "string" && e.message.includes(`'${name}'`);
}

/** PEER_MISSING for an optional peer package a feature needs, naming the command that installs it. */
export function peerMissing(name: string, feature: string, cause?: unknown): MemoryError {
  return new MemoryError(ErrorCodes.PEER_MISSING, `${feature} needs the optional peer package "${name}", which is not installed: ${INSTALL_HINTS[name] ?? `npm i ${name}`}`, {
    cause,
    details: { package: name },
  });
}

/**
 * Import an optional peer package on first use: PEER_MISSING (naming the install command) when it
 * is not installed; any other failure as it came.
 *
 * @example
 * const { initChatModel } = await importOptionalPeer("langchain", () => import("langchain"), `the chat model "${spec}"`);
 */
export async function importOptionalPeer<T>(name: string, load: () => Promise<T>, feature: string): Promise<T> {
  try {
    return await load();
  } catch (err) {
    throw isMissingPackage(err, name) ? peerMissing(name, feature, err) : err;
  }
}
