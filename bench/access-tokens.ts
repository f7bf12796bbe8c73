// What access tokens cost: `POST /auth/token` against `GET /auth/me` under the same load (wrk, the
// server on a core of its own), and the verifier's verifications per second on one core against
// jose's bare `jwtVerify` of the same token (bench/verify-speed.ts), in the same run. Part of
// `npm run bench`.
import { benchMasterKey as masterKey, seedSecure } from "./seed.ts"
import { startBun } from "./servers.ts"
import { benchSettings, type Measured, wrkWarmed } from "./wrk.ts"

export interface AccessTokenCost {
  readonly me: Measured
  readonly token: Measured
  readonly verifier: number
  readonly jose: number
}

const secretsKey = "access-token-bench-secrets-key-0123456789abcdef"

export const accessTokenCost = async (): Promise<AccessTokenCost> => {
  const { seconds, connections, serverCore, loadCore } = benchSettings
  const server = await startBun(
    "app/main.ts",
    {
      ROSTER_PLANS_FILE: "config/plans.json",
      ROSTER_STORE: "memory",
      ROSTER_MASTER_KEY: masterKey,
      ROSTER_SECRETS_KEY: secretsKey
    },
    serverCore
  )
  try {
    const session = await seedSecure(server.base, masterKey)
    const headers = { Authorization: `Bearer ${session}` }
    const me = await wrkWarmed(server.base, [{ method: "GET", path: "/api/v1/auth/me", headers }], {
      connections,
      seconds,
      core: loadCore
    })
    const token = await wrkWarmed(server.base, [{ method: "POST", path: "/api/v1/auth/token", headers }], {
      connections,
      seconds,
      core: loadCore
    })
    const made = (await (
      await fetch(`${server.base}/api/v1/auth/token`, { method: "POST", headers })
    ).json()) as { readonly accessToken: string }
    const keySet = await (await fetch(`${server.base}/.well-known/jwks.json`)).text()
    // The server stopped first: the verifier has the core alone.
    await server.stop()
    const verifying = Bun.spawn(
      ["taskset", "-c", String(serverCore), process.execPath, "bench/verify-speed.ts"],
      {
        env: { ...process.env, BENCH_TOKEN: made.accessToken, BENCH_ISSUER: server.base, BENCH_JWKS: keySet },
        stdout: "pipe",
        stderr: "inherit"
      }
    )
    const speeds = JSON.parse(await new Response(verifying.stdout).text()) as {
      verifier: number
      jose: number
    }
    return { me, token, ...speeds }
  } finally {
    await server.stop().catch(() => undefined)
  }
}

export const printAccessTokenCost = (cost: AccessTokenCost) => {
  const tokenRatio = cost.token.requestsPerSecond / cost.me.requestsPerSecond
  const verifyRatio = cost.verifier / cost.jose
  console.log("\naccess tokens (a member's session, in process memory; see bench/access-tokens.ts)")
  console.log(
    `  GET /api/v1/auth/me     ${cost.me.requestsPerSecond.toFixed(0).padStart(8)} req/s, p50 ${cost.me.p50Ms.toFixed(2)} ms`
  )
  console.log(
    `  POST /api/v1/auth/token ${cost.token.requestsPerSecond.toFixed(0).padStart(8)} req/s, p50 ${cost.token.p50Ms.toFixed(2)} ms: ×${tokenRatio.toFixed(2)} of /auth/me (goal ≥ 0.5)`
  )
  console.log(
    `  verifications on one core: roster-service/verify ${cost.verifier.toFixed(0)}/s, jose's jwtVerify ${cost.jose.toFixed(0)}/s: ×${verifyRatio.toFixed(2)} (goal ≥ 0.9)`
  )
}
