import { announceListening, listenOrExit, prepare, stopGracefully } from "./start.ts"

const { settings, handler, dispose, consoleBuilt } = await prepare()

const server = listenOrExit(settings, () =>
  Bun.serve({
    port: settings.port,
    hostname: settings.host,
    // The peer's address is looked up only when a request needs it (a login), not for every request.
    fetch: (request, server) =>
      handler(request, {
        get remoteAddress() {
          return server.requestIP(request)?.address
        }
      })
  })
)
announceListening(settings, server.port ?? settings.port, consoleBuilt, "bun")

stopGracefully({
  onSignal: (signal, handler) => process.on(signal, handler),
  // Resolves once every in-flight request has been answered and its connection closed.
  stopServer: () => server.stop(),
  dispose
})
