/**
 * Optional peers (`langchain`, `@langchain/openai`) load on first use: a package that is not
 * installed is PEER_MISSING naming the install command; any other failure while loading is the
 * original error.
 */
import { importOptionalPeer, isMissingPackage } from "../../src/models/optional-peer.js";

const notFound = (spec: string) => Object.assign(new Error(`Cannot find package '${spec}' imported from /app/x.js`), { code: "ERR_MODULE_NOT_FOUND" });

describe("optional peers", () => {
  it("a package that is not installed is PEER_MISSING, naming what to install (and the Node 20 release of @langchain/openai)", async () => {
    await expect(importOptionalPeer("langchain", () => Promise.reject(notFound("langchain")), 'the chat model "openai:gpt-4o-mini"')).rejects.toMatchObject({
      code: "PEER_MISSING",
      message: expect.stringMatching(/^the chat model "openai:gpt-4o-mini" needs the optional peer package "langchain", which is not installed: npm i langchain$/),
      details: { package: "langchain" },
    });
    await expect(importOptionalPeer("@langchain/openai", () => Promise.reject(notFound("@langchain/openai")), "embeddings")).rejects.toMatchObject({
      code: "PEER_MISSING",
      message: expect.stringContaining("@langchain/openai@1.5.8"),
    });
  });

  it("another package missing inside it, or any other failure, is the original error", async () => {
    const inner = notFound("@langchain/anthropic");
    await expect(importOptionalPeer("langchain", () => Promise.reject(inner), "x")).rejects.toBe(inner);
    const broken = new SyntaxError("Unexpected token");
    await expect(importOptionalPeer("langchain", () => Promise.reject(broken), "x")).rejects.toBe(broken);
    expect(isMissingPackage(notFound("langchain"), "langchain")).toBe(true);
    expect(isMissingPackage(notFound("langchain-community"), "langchain")).toBe(false);
  });

  it("an installed package loads", async () => {
    const mod = await importOptionalPeer("langchain", () => import("langchain"), "x");
    expect(typeof mod.createMiddleware).toBe("function");
  });
});
