import { bareWeb } from "./bare-httpapi.ts"

const server = Bun.serve({
  port: Number(process.env.PORT),
  hostname: "127.0.0.1",
  fetch: (request) => bareWeb.handler(request)
})
console.log(`bare HttpApi listening on http://127.0.0.1:${server.port}`)
process.on("SIGINT", () => process.exit(0))
