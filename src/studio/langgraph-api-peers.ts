import { importOptionalPeer } from "../models/optional-peer.js";

/**
 * The optional peers of the Studio integration, loaded on first use only (importing the library
 * never loads them): `hono` for the HTTP app, `@langchain/langgraph-api` for the LangGraph API
 * routes of `langgraph-memory dev`. Both come with `@langchain/langgraph-cli`.
 */
export function importHono() {
  return importOptionalPeer("hono", () => import("hono"), "the memory HTTP app for LangGraph (langgraph-memory/studio)");
}

export function importHonoCors() {
  return importOptionalPeer("hono", () => import("hono/cors"), "langgraph-memory dev (CORS for Studio)");
}

export function importEmbedServer() {
  return importOptionalPeer("@langchain/langgraph-api", () => import("@langchain/langgraph-api/experimental/embed"), "langgraph-memory dev (the LangGraph API)");
}

export function importGraphSchemas() {
  return importOptionalPeer("@langchain/langgraph-api", () => import("@langchain/langgraph-api/schema"), "langgraph-memory dev (graph schemas)");
}

/** Register tsx's ESM loader, so graph files written in TypeScript can be imported. */
export async function registerTypeScriptLoader(): Promise<void> {
  const { register } = await importOptionalPeer("tsx", () => import("tsx/esm/api"), "loading a TypeScript graph file");
  register();
}
