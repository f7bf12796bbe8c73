import type { TestProject } from "vitest/node"
import { ensureFerretDbBuilt, startFerretDb } from "./ferretdb.ts"

declare module "vitest" {
  export interface ProvidedContext {
    /** The MongoDB the database tests use: `MONGODB_URI` when set, else a FerretDB started for the run. */
    mongoUri: string
  }
}

/** One database server for the whole run; each test file works in databases of its own. */
export default async function setup(project: TestProject) {
  // Built even when MONGODB_URI names a server: the outage test stops and starts a FerretDB of its own.
  ensureFerretDbBuilt()
  const external = process.env.MONGODB_URI
  if (external !== undefined && external !== "") {
    project.provide("mongoUri", external)
    return
  }
  const server = await startFerretDb()
  project.provide("mongoUri", server.uri)
  return () => server.dispose()
}
