import type { TestProject } from "vitest/node"
import { ensureFerretDbBuilt, startFerretDb } from "./ferretdb.ts"
import { startPostgres } from "./postgres.ts"
import { ensureStripeMockBuilt, startStripeMock } from "./stripe-mock.ts"

declare module "vitest" {
  export interface ProvidedContext {
    /** The MongoDB the database tests use: `MONGODB_URI` when set, else a FerretDB started for the run. */
    mongoUri: string
    /** A stripe-mock started for the run: the payment provider's API the billing tests call. */
    stripeApiUrl: string
    /** A PostgreSQL started for the run: its own database's URL, each test file making databases of its own. */
    postgresUrl: string
  }
}

/** One server of each database and one stripe-mock for the whole run; each test file works in databases of its own. */
export default async function setup(project: TestProject) {
  // Built even when MONGODB_URI names a server: the outage test stops and starts a FerretDB of its own.
  ensureFerretDbBuilt()
  ensureStripeMockBuilt()
  const [stripe, postgres] = await Promise.all([startStripeMock(), startPostgres()])
  project.provide("stripeApiUrl", stripe.url)
  project.provide("postgresUrl", postgres.url)
  const external = process.env.MONGODB_URI
  if (external !== undefined && external !== "") {
    project.provide("mongoUri", external)
    return async () => {
      await Promise.all([stripe.stop(), postgres.dispose()])
    }
  }
  const server = await startFerretDb()
  project.provide("mongoUri", server.uri)
  return async () => {
    await Promise.all([server.dispose(), stripe.stop(), postgres.dispose()])
  }
}
