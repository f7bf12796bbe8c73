// What asking costs: `POST /authorize` with one check and with a hundred, about the caller itself,
// against `GET /auth/me` under the same load (wrk, the server on a core of its own), in the same
// run. Part of `npm run bench`; goals ≥ 0.9× and ≥ 0.7× of /auth/me's req/s.
import { benchMasterKey as masterKey, seedSecure } from "./seed.ts"
import { startBun } from "./servers.ts"
import { benchSettings, type Measured, wrkWarmed } from "./wrk.ts"

export interface AuthorizeCost {
  readonly me: Measured
  readonly one: Measured
  readonly hundred: Measured
}

/** A body of `count` checks about the caller, cycling through Roster's permissions by key and by id. */
const checksBody = (count: number) =>
  JSON.stringify({
    checks: Array.from({ length: count }, (_, i) => ({
      permission: i % 2 === 0 ? "team.read" : (i % 12) + 1
    }))
  })

export const authorizeCost = async (): Promise<AuthorizeCost> => {
  const { seconds, connections, serverCore, loadCore } = benchSettings
  const server = await startBun(
    "app/main.ts",
    { ROSTER_PLANS_FILE: "config/plans.json", ROSTER_STORE: "memory", ROSTER_MASTER_KEY: masterKey },
    serverCore
  )
  try {
    const session = await seedSecure(server.base, masterKey)
    const headers = { Authorization: `Bearer ${session}` }
    const load = { connections, seconds, core: loadCore }
    const asking = (count: number) =>
      wrkWarmed(
        server.base,
        [
          {
            method: "POST",
            path: "/api/v1/authorize",
            headers: { ...headers, "Content-Type": "application/json" },
            body: checksBody(count)
          }
        ],
        load
      )
    const me = await wrkWarmed(server.base, [{ method: "GET", path: "/api/v1/auth/me", headers }], load)
    return { me, one: await asking(1), hundred: await asking(100) }
  } finally {
    await server.stop().catch(() => undefined)
  }
}

export const printAuthorizeCost = (cost: AuthorizeCost) => {
  const line = (label: string, measured: Measured, goal?: number) => {
    const ratio = measured.requestsPerSecond / cost.me.requestsPerSecond
    const against = goal === undefined ? "" : `: ×${ratio.toFixed(2)} of /auth/me (goal ≥ ${goal})`
    console.log(
      `  ${label.padEnd(30)} ${measured.requestsPerSecond.toFixed(0).padStart(8)} req/s, p50 ${measured.p50Ms.toFixed(2)} ms${against}`
    )
  }
  console.log("\nasking (a member's session about itself, in process memory; see bench/authorize-cost.ts)")
  line("GET /api/v1/auth/me", cost.me)
  line("POST /api/v1/authorize, 1", cost.one, 0.9)
  line("POST /api/v1/authorize, 100", cost.hundred, 0.7)
}
