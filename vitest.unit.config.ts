import { defineConfig } from "vitest/config"

// The core's own unit tests, on the in-memory adapters: no database, no Go build, no server. What
// `npm run test:unit` runs in seconds, and what mutation testing runs against the core.
export default defineConfig({
  test: {
    include: ["test/unit/**/*.test.ts"],
    // Hashing on Bun and Deno proves the adapter, not the core, and takes seconds per run.
    exclude: ["test/unit/hasher-runtimes.test.ts"],
    testTimeout: 30_000,
    // Each file builds the layers it runs on; the modules (the core, the adapters) are loaded once
    // per worker rather than once per file, which was most of the run's time.
    isolate: false
  }
})
