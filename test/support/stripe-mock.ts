import { execFileSync } from "node:child_process"
import { type ListeningProcess, startListening } from "./listening-process.ts"

/** Builds stripe-mock (a no-op when it is up to date), once per run, before a test starts one. */
export const ensureStripeMockBuilt = () => {
  execFileSync("bash", ["tools/stripe-mock/build.sh"], { stdio: "inherit" })
}

export interface StripeMock {
  /** Where its HTTP API answers, e.g. `http://127.0.0.1:40711`. */
  readonly url: string
  readonly stop: ListeningProcess["stop"]
}

/** A stripe-mock on free loopback ports: a stateless server of Stripe's API that validates every request. */
export const startStripeMock = async (): Promise<StripeMock> => {
  const server = await startListening(
    "tools/stripe-mock/bin/stripe-mock",
    ["-http-addr", "127.0.0.1:0", "-https-addr", "127.0.0.1:0"],
    /Listening for HTTP at address: (\S+)/
  )
  return { url: `http://${server.address}`, stop: server.stop }
}
