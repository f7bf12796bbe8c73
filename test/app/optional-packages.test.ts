import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"

const run = promisify(execFile)

/** Which optional packages a Bun process has loaded once Roster is prepared with `env`. */
const loadedWith = async (env: Record<string, string>) => {
  const script = `
    const { prepare } = await import("./app/start.ts")
    const { dispose } = await prepare()
    const loaded = Object.keys(require.cache)
    console.log("loaded:" + JSON.stringify({
      stripe: loaded.some((path) => path.includes("/node_modules/stripe/")),
      mongodb: loaded.some((path) => path.includes("/node_modules/mongodb/"))
    }))
    await dispose()
    process.exit(0)`
  const { stdout } = await run("node_modules/.bin/bun", ["-e", script], {
    env: { PATH: process.env.PATH ?? "", ROSTER_PLANS_FILE: "config/plans.json", ...env }
  })
  // Found by its mark: the service's own log lines may come before or after it.
  const line = stdout.split("\n").find((text) => text.startsWith("loaded:")) ?? ""
  return JSON.parse(line.slice("loaded:".length)) as { stripe: boolean; mongodb: boolean }
}

// Each holds memory from the moment it is loaded (Stripe's ~5 MB, the driver's ~14 MB) for nothing
// in a service that does not use it.
describe("optional packages", () => {
  it("are not loaded by a service that uses neither Stripe nor MongoDB", async () => {
    expect(await loadedWith({})).toEqual({ stripe: false, mongodb: false })
  })

  it("load Stripe's for a service that verifies Stripe's deliveries", async () => {
    const loaded = await loadedWith({
      ROSTER_MASTER_KEY: "k".repeat(32),
      ROSTER_WEBHOOK_SECRET: "whsec_test",
      ROSTER_WEBHOOK_SCHEME: "stripe"
    })
    expect(loaded).toEqual({ stripe: true, mongodb: false })
  })
})
