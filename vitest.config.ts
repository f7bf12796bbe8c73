import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    globalSetup: ["test/support/global-database.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: "roster", include: ["test/**/*.test.ts"] } },
      // The HTTP suite again, unchanged, with MongoDB (FerretDB) behind the service.
      {
        extends: true,
        test: {
          name: "http-on-mongodb",
          include: ["test/http/**/*.test.ts"],
          env: { ROSTER_TEST_STORE: "mongodb" }
        }
      }
    ]
  }
})
