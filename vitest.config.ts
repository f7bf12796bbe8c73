import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    globalSetup: ["test/support/global-database.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        // Tests of SQLite's own adapter need its driver: they run in the SQLite project only.
        test: { name: "roster", include: ["test/**/*.test.ts"], exclude: ["test/**/*-on-sqlite.test.ts"] }
      },
      // The HTTP suite again, unchanged, with MongoDB (FerretDB) behind the service.
      {
        extends: true,
        test: {
          name: "http-on-mongodb",
          include: ["test/http/**/*.test.ts"],
          env: { ROSTER_TEST_STORE: "mongodb" }
        }
      },
      // The contract and HTTP suites on SQLite. Run under Bun (`npm test` does): Bun's driver is the
      // one the service runs on, and Node 20 has none.
      {
        extends: true,
        test: {
          name: "sqlite",
          include: ["test/contract/**/*.test.ts", "test/http/**/*.test.ts"],
          exclude: ["test/contract/**/*-on-mongodb.test.ts", "test/http/two-instances.test.ts"],
          env: { ROSTER_TEST_STORES: "sqlite", ROSTER_TEST_STORE: "sqlite" }
        }
      }
    ]
  }
})
