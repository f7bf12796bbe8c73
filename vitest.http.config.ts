import { defineConfig } from "vitest/config"

// The middle loop: every endpoint through the web handler on the in-memory store, with no server
// started (no database, no stripe-mock), in a few seconds. `npm test` runs the same files on every store.
export default defineConfig({
  test: {
    include: ["test/http/**/*.test.ts"],
    // These reach a database or stripe-mock that `npm test` starts.
    exclude: [
      "test/http/two-instances.test.ts",
      "test/http/round-trips.test.ts",
      "test/http/billing-stripe-checkout.test.ts",
      "test/http/billing-stripe-cancel.test.ts",
      "test/http/stripe-traceparent.test.ts"
    ],
    testTimeout: 30_000,
    isolate: false
  }
})
