import { exit, logEvent, prepare } from "./start.ts"

const { settings, handler, dispose } = await prepare()

const server = Bun.serve({
  port: settings.port,
  hostname: settings.host,
  fetch: (request, server) => handler(request, { remoteAddress: server.requestIP(request)?.address })
})
logEvent("info", `Roster listening on http://${settings.host}:${server.port}`, { runtime: "bun" })

let stopping = false
const shutdown = async (signal: string) => {
  if (stopping) return
  stopping = true
  logEvent("info", `${signal}: no new connections; finishing requests in flight`)
  // Resolves once every in-flight request has been answered and its connection closed.
  await server.stop()
  await dispose()
  logEvent("info", "Roster stopped")
  exit(0)
}
process.on("SIGTERM", () => void shutdown("SIGTERM"))
process.on("SIGINT", () => void shutdown("SIGINT"))
