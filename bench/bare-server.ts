import { bareWeb } from "./bare-httpapi.ts"
import { routerWeb } from "./bare-router.ts"

// BARE=router serves the same shapes on HttpRouter alone (bare-router.ts).
const web = process.env.BARE === "router" ? routerWeb : bareWeb
const server = Bun.serve({
  port: Number(process.env.PORT),
  hostname: "127.0.0.1",
  fetch: (request) => web.handler(request)
})
console.log(`bare ${process.env.BARE ?? "HttpApi"} listening on http://127.0.0.1:${server.port}`)
process.on("SIGINT", () => process.exit(0))
