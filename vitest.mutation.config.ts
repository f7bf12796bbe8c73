import { defineConfig } from "vitest/config"

// What mutation testing runs: the core's own unit tests, on the in-memory adapters, no database.
export default defineConfig({
  test: {
    include: ["test/unit/**/*.test.ts"],
    // Hashing on Bun and Deno proves the adapter, not the core, and takes seconds per run.
    exclude: ["test/unit/hasher-runtimes.test.ts"],
    testTimeout: 30_000
  }
})
