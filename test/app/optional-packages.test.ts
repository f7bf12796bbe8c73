import { execFile } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"

const run = promisify(execFile)

/**
 * Which optional packages a Bun process has loaded once Roster is prepared with `env` and has
 * served `paths`, and whether it loaded the module holding Scalar's script for the docs page: an
 * ES module, absent from `require.cache`, so a runtime plugin records its loading.
 */
const loadedWith = async (env: Record<string, string>, paths: ReadonlyArray<string> = []) => {
  const script = `
    const { readFileSync } = await import("node:fs")
    let scalar = false
    Bun.plugin({
      name: "record-scalar",
      setup(build) {
        build.onLoad({ filter: /internal\\/httpApiScalar\\.js$/ }, (args) => {
          scalar = true
          return { contents: readFileSync(args.path, "utf8"), loader: "js" }
        })
      }
    })
    const { prepare } = await import("./app/start.ts")
    const { handler, dispose } = await prepare()
    // A first request waits for the app's routes to be built, and so for whatever they load.
    await handler(new Request("http://127.0.0.1/health/live"), { remoteAddress: "127.0.0.1" })
    for (const path of ${JSON.stringify(paths)}) {
      const response = await handler(new Request("http://127.0.0.1" + path), { remoteAddress: "127.0.0.1" })
      console.log("served:" + response.status + " " + (await response.text()).length)
    }
    const loaded = Object.keys(require.cache)
    console.log("loaded:" + JSON.stringify({
      stripe: loaded.some((path) => path.includes("/node_modules/stripe/")),
      mongodb: loaded.some((path) => path.includes("/node_modules/mongodb/")),
      saml: loaded.some((path) => path.includes("/node_modules/@node-saml/")),
      xml: loaded.some((path) => path.includes("/node_modules/@xmldom/")),
      webAuthn: loaded.some((path) => path.includes("/node_modules/@simplewebauthn/")),
      forge: loaded.some((path) => path.includes("/node_modules/node-forge/")),
      oidc: loaded.some((path) => path.includes("/node_modules/openid-client/")),
      scalar
    }))
    await dispose()
    process.exit(0)`
  const { stdout } = await run("node_modules/.bin/bun", ["-e", script], {
    env: {
      PATH: process.env.PATH ?? "",
      ROSTER_PLANS_FILE: "config/plans.json",
      // The default store, SQLite, in a directory of this test's own.
      ROSTER_DATA_DIR: mkdtempSync(join(tmpdir(), "roster-data-")),
      ...env
    }
  })
  // Found by its mark: the service's own log lines may come before or after it.
  const line = stdout.split("\n").find((text) => text.startsWith("loaded:")) ?? ""
  const served = stdout.split("\n").filter((text) => text.startsWith("served:"))
  return { ...JSON.parse(line.slice("loaded:".length)), served } as {
    stripe: boolean
    mongodb: boolean
    saml: boolean
    xml: boolean
    webAuthn: boolean
    forge: boolean
    oidc: boolean
    scalar: boolean
    served: Array<string>
  }
}

// Each holds memory from the moment it is loaded (Stripe's ~5 MB, the driver's ~14 MB, Scalar's
// ~11 MB, SAML's ~11 MB, WebAuthn's ~8 MB, OIDC's JOSE stack) for nothing in a service that does not use it.
const noneOfThem = { saml: false, xml: false, webAuthn: false, forge: false, oidc: false }
describe("optional packages", () => {
  it("are not loaded by a service that uses neither Stripe nor MongoDB, has signed nobody in with SSO or a passkey, and has not served its docs page", async () => {
    expect(await loadedWith({})).toEqual({
      stripe: false,
      mongodb: false,
      scalar: false,
      served: [],
      ...noneOfThem
    })
  })

  it("load Scalar's script once the docs page is asked for, and the page is served each time", async () => {
    const loaded = await loadedWith({}, ["/api/v1/docs", "/api/v1/docs"])
    expect(loaded.scalar).toBe(true)
    expect(loaded.served).toHaveLength(2)
    for (const line of loaded.served) expect(Number(line.split(" ")[1])).toBeGreaterThan(3_000_000)
    expect(loaded.served.map((line) => line.split(" ")[0])).toEqual(["served:200", "served:200"])
  })

  it("load Stripe's for a service that verifies Stripe's deliveries", async () => {
    const loaded = await loadedWith({
      ROSTER_MASTER_KEY: "k".repeat(32),
      ROSTER_WEBHOOK_SECRET: "whsec_test",
      ROSTER_WEBHOOK_SCHEME: "stripe"
    })
    expect(loaded).toEqual({ stripe: true, mongodb: false, scalar: false, served: [], ...noneOfThem })
  })
})
