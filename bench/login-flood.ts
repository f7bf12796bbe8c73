import { benchMember } from "./loads.ts"
import type { Server } from "./servers.ts"
import { type Measured, wrk } from "./wrk.ts"

export interface Flood {
  readonly loginConnections: number
  readonly readConnections: number
  readonly readsAlone: Measured
  readonly readsDuringFlood: Measured
  readonly logins: Measured
  readonly rssAfterMb: number
}

const readConnections = 10
const loginConnections = 50

/** Cheap reads alone, then the same reads while 50 connections log in (each login hashes). */
export const loginFlood = async (
  server: Server,
  token: string,
  options: { seconds: number; core: number }
): Promise<Flood> => {
  const base = server.base
  const reads = [
    { method: "GET" as const, path: "/api/v1/team/roles", headers: { Authorization: `Bearer ${token}` } }
  ]
  const login = [{ method: "POST" as const, path: "/api/v1/auth/login", body: JSON.stringify(benchMember) }]
  const readsAlone = await wrk(base, reads, { connections: readConnections, ...options })
  const [readsDuringFlood, logins] = await Promise.all([
    wrk(base, reads, { connections: readConnections, ...options }),
    wrk(base, login, { connections: loginConnections, ...options })
  ])
  return {
    loginConnections,
    readConnections,
    readsAlone,
    readsDuringFlood,
    logins,
    rssAfterMb: await server.rssMb()
  }
}
