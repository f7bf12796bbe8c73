// `bun bench/flood-alone.ts`: the login flood of `npm run bench` against a fresh secure server on
// the memory store, with no load before it, printing the server's RSS once seeded, at the flood's
// end and each second for three seconds after: where the flood's memory comes from, apart from
// what the loads before it leave behind. `ROSTER_ENTRY` names another entry (another tree's).
import { loginFlood } from "./login-flood.ts"
import { benchMasterKey as masterKey, seedSecure } from "./seed.ts"
import { startBun } from "./servers.ts"
import { benchSettings } from "./wrk.ts"

const { seconds, serverCore, loadCore } = benchSettings
const server = await startBun(
  process.env.ROSTER_ENTRY ?? "app/main.ts",
  { ROSTER_STORE: "memory", ROSTER_PLANS_FILE: "config/plans.json", ROSTER_MASTER_KEY: masterKey },
  serverCore
)
try {
  await seedSecure(server.base, masterKey)
  const seeded = await server.rssMb()
  const flood = await loginFlood(server, masterKey, { seconds, core: loadCore })
  const after: Array<number> = []
  for (let second = 0; second < 3; second++) {
    await Bun.sleep(1000)
    after.push(await server.rssMb())
  }
  const mb = (value: number) => value.toFixed(0)
  console.log(
    `RSS MB: seeded ${mb(seeded)}, flood's end ${mb(flood.rssAfterMb)}, after 1-3 s ${after.map(mb).join(" ")}; ` +
      `logins ${flood.logins.requestsPerSecond.toFixed(0)} req/s, reads ${flood.readsDuringFlood.requestsPerSecond.toFixed(0)} req/s`
  )
} finally {
  await server.stop()
}
