// Verifications per second on this one core (the caller pins it with taskset): Roster's verifier
// (`roster-service/verify`) against jose's bare `jwtVerify` of the same token with the same key
// set, in alternating rounds. Reads the token, issuer and key set from the environment; prints JSON.
import { createLocalJWKSet, type JSONWebKeySet, jwtVerify } from "jose"
import { createRosterVerifier } from "../adapters/verify/index.ts"

const token = process.env.BENCH_TOKEN ?? ""
const issuer = process.env.BENCH_ISSUER ?? ""
const keySet = JSON.parse(process.env.BENCH_JWKS ?? "{}") as JSONWebKeySet
const roundMs = Number(process.env.BENCH_ROUND_MS ?? 1000)
const rounds = Number(process.env.BENCH_ROUNDS ?? 5)

const verifier = createRosterVerifier({
  issuer,
  fetch: async () => new Response(JSON.stringify(keySet), { headers: { "cache-control": "max-age=300" } })
})
const local = createLocalJWKSet(keySet)
const bare = () => jwtVerify(token, local, { issuer, audience: "roster", typ: "at+jwt" })
const ours = () => verifier.verify(token)

/** How many `verify` calls complete in one round, one after another. */
const perSecond = async (verify: () => Promise<unknown>) => {
  let done = 0
  const started = performance.now()
  while (performance.now() - started < roundMs) {
    await verify()
    done++
  }
  return (done * 1000) / (performance.now() - started)
}

for (let warm = 0; warm < 2000; warm++) {
  await bare()
  await ours()
}
const verifierRounds: Array<number> = []
const joseRounds: Array<number> = []
for (let round = 0; round < rounds; round++) {
  verifierRounds.push(await perSecond(ours))
  joseRounds.push(await perSecond(bare))
}
const median = (values: Array<number>) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0
console.log(JSON.stringify({ verifier: median(verifierRounds), jose: median(joseRounds) }))
