// Per-request cost without a network: the web handler called in process, for profiling
// (`bun --cpu-prof bench/in-process.ts`). Not a throughput figure: `npm run bench` is.
import { prepare } from "../app/start.ts"

const { handler } = await prepare()
const base = "http://127.0.0.1:3000"
const requests: Record<string, () => Request> = {
  "GET /health/live": () => new Request(`${base}/health/live`),
  "GET /api/v1/team/roles": () => new Request(`${base}/api/v1/team/roles`),
  "POST /api/v1/team/role/add (409)": () =>
    new Request(`${base}/api/v1/team/role/add`, {
      method: "POST",
      headers: { "content-type": "*/*" },
      body: '{"name":"Bench","roleKey":"bench"}'
    }),
  "POST /api/v1/team/add (400)": () =>
    new Request(`${base}/api/v1/team/add`, {
      method: "POST",
      headers: { "content-type": "*/*" },
      body: '{"username":"x"}'
    })
}
await handler(requests["POST /api/v1/team/role/add (409)"]!(), { remoteAddress: "127.0.0.1" })
const only = process.env.ONLY
const iterations = Number(process.env.ITERATIONS ?? 20000)
for (const [name, make] of Object.entries(requests)) {
  if (only !== undefined && !name.includes(only)) continue
  for (let i = 0; i < 2000; i++) await (await handler(make(), { remoteAddress: "127.0.0.1" })).arrayBuffer()
  const started = performance.now()
  for (let i = 0; i < iterations; i++)
    await (await handler(make(), { remoteAddress: "127.0.0.1" })).arrayBuffer()
  console.log(
    `${name.padEnd(36)} ${(((performance.now() - started) * 1000) / iterations).toFixed(1)} µs/request`
  )
}
process.exit(0)
