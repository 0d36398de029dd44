import { defineConfig } from "vitest/config";

// The official checkpointer conformance suite uses `expect.soft` and globals: it only runs on vitest.
export default defineConfig({
  test: {
    globals: true,
    include: ["test/conformance/**/*.spec.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
