import { createServer, Packet } from "dns2"

/** A DNS server on loopback (UDP) answering TXT questions from `records`, which a test changes as it goes. */
export interface TestDns {
  /** `host:port`, for `ROSTER_DNS_SERVERS`. */
  readonly server: string
  readonly records: Map<string, ReadonlyArray<string>>
  readonly close: () => Promise<void>
}

export const startDns = async (): Promise<TestDns> => {
  const records = new Map<string, ReadonlyArray<string>>()
  const server = createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request)
      const [question] = request.questions
      if (question !== undefined && question.type === Packet.TYPE.TXT) {
        for (const value of records.get(question.name.toLowerCase()) ?? []) {
          const answer = {
            name: question.name,
            type: Packet.TYPE.TXT,
            class: Packet.CLASS.IN,
            ttl: 1,
            data: value
          }
          response.answers.push(answer as (typeof response.answers)[number])
        }
      }
      send(response)
    }
  })
  const listening = await server.listen({ udp: { port: 0, address: "127.0.0.1" } })
  const port = listening.udp?.port
  if (port === undefined) throw new Error("the DNS server did not listen")
  return {
    server: `127.0.0.1:${port}`,
    records,
    close: () => server.close()
  }
}
