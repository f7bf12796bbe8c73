import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startListening } from "./listening-process.ts"

const binary = "tools/ferretdb/bin/ferretdb"

/**
 * Builds the embedded FerretDB (a no-op when it is up to date), so `npm test` alone needs only Go.
 * The global setup does it once per run, before any test starts a server.
 */
export const ensureFerretDbBuilt = () => {
  execFileSync("bash", ["tools/ferretdb/build.sh"], { stdio: "inherit" })
}

export interface FerretDb {
  readonly uri: string
  /** Stops the server (SIGTERM) and waits for it to exit; its data stays for `restart`. */
  readonly stop: () => Promise<void>
  /** Kills it (SIGKILL) mid-whatever it was doing; its data stays for `restart`. */
  readonly crash: () => Promise<void>
  /** Starts it again on the same address and data, as after an outage. */
  readonly restart: () => Promise<void>
  /** Stops it and deletes its data. */
  readonly dispose: () => Promise<void>
}

const launch = async (listen: string, data: string) => {
  const server = await startListening(
    binary,
    ["-listen", listen, "-data", data, "-lifeline"],
    /ready (mongodb:\/\/\S+)/
  )
  return { uri: server.address, stop: server.stop }
}

/** A FerretDB on SQLite with a fresh data directory, on `listen` (a free port when omitted). */
export const startFerretDb = async (listen = "127.0.0.1:0"): Promise<FerretDb> => {
  const data = mkdtempSync(join(tmpdir(), "roster-ferretdb-"))
  let running = await launch(listen, data)
  const address = new URL(running.uri).host
  return {
    uri: running.uri,
    stop: () => running.stop(),
    crash: () => running.stop("SIGKILL"),
    restart: async () => {
      running = await launch(address, data)
    },
    dispose: async () => {
      await running.stop()
      rmSync(data, { recursive: true, force: true })
    }
  }
}
