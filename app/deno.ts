import { announceListening, listenOrExit, prepare, stopGracefully } from "./start.ts"

/** The little of Deno's runtime API this entrypoint uses; tsc checks the rest of the app without Deno's types. */
declare const Deno: {
  serve(
    options: { port: number; hostname: string; onListen?: (address: { port: number }) => void },
    handler: (request: Request, info: { remoteAddr: { hostname: string } }) => Promise<Response>
  ): { shutdown(): Promise<void> }
  addSignalListener(signal: "SIGTERM" | "SIGINT", listener: () => void): void
}

const { settings, handler, dispose, consoleBuilt } = await prepare()

const server = listenOrExit(settings, () =>
  Deno.serve(
    {
      port: settings.port,
      hostname: settings.host,
      onListen: ({ port }) => announceListening(settings, port, consoleBuilt, "deno")
    },
    (request, info) => handler(request, { remoteAddress: info.remoteAddr.hostname })
  )
)

stopGracefully({
  onSignal: (signal, handler) => Deno.addSignalListener(signal, handler),
  stopServer: () => server.shutdown(),
  dispose
})
