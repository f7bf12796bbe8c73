import { connect, createServer, type Socket } from "node:net"
import type { OpenSqlite } from "../adapters/sqlite/index.ts"

/** What a store was asked, counted while the requests measured run. */
export interface Tally {
  commands: number
}

/**
 * `open`, its connection counting the calls that reach SQLite: a statement, or a whole transaction
 * (from its BEGIN to its COMMIT or ROLLBACK) as one. SQLite runs in the process and a transaction
 * holds the file from its first statement to its last, so it is one visit to the database, as a
 * statement is; it is what the same work costs where a network lies between.
 */
export const countingOpen =
  (open: OpenSqlite, tally: Tally): OpenSqlite =>
  async (path) => {
    const connection = await open(path)
    let inTransaction = false
    const counted = () => {
      if (!inTransaction) tally.commands++
    }
    return {
      exec: (sql) => {
        if (/^\s*BEGIN/iu.test(sql)) {
          counted()
          inTransaction = true
        } else if (/^\s*(COMMIT|ROLLBACK)/iu.test(sql)) inTransaction = false
        else counted()
        connection.exec(sql)
      },
      all: (sql, ...params) => {
        counted()
        return connection.all(sql, ...params)
      },
      get: (sql, ...params) => {
        counted()
        return connection.get(sql, ...params)
      },
      run: (sql, ...params) => {
        counted()
        return connection.run(sql, ...params)
      },
      close: () => connection.close()
    }
  }

/** What a driver asks of a server besides the application's own work: handshakes and monitoring. */
const housekeeping = new Set([
  "hello",
  "ismaster",
  "ping",
  "buildinfo",
  "endsessions",
  "saslstart",
  "saslcontinue"
])

/** OP_MSG (MongoDB's wire protocol): the name of its command, the first key of its body document. */
const commandOf = (message: Buffer): string | undefined => {
  if (message.readInt32LE(12) !== 2013 || message[20] !== 0) return undefined
  const nameStart = 26
  const nameEnd = message.indexOf(0, nameStart)
  return nameEnd === -1 ? undefined : message.toString("latin1", nameStart, nameEnd)
}

/**
 * A TCP proxy in front of a MongoDB server (`target`, `host:port`) that counts the commands clients
 * send through it, handshakes and monitoring left out: every one is a round trip to the database.
 */
export const startCountingProxy = async (target: string) => {
  const tally: Tally = { commands: 0 }
  const [host = "127.0.0.1", port = "27017"] = target.split(":")
  const sockets = new Set<Socket>()
  const server = createServer((client) => {
    const upstream = connect(Number(port), host)
    sockets.add(client).add(upstream)
    let pending = Buffer.alloc(0)
    client.on("data", (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk])
      while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
        const length = pending.readInt32LE(0)
        const command = commandOf(pending.subarray(0, length))
        if (command !== undefined && !housekeeping.has(command.toLowerCase())) tally.commands++
        pending = pending.subarray(length)
      }
      upstream.write(chunk)
    })
    upstream.pipe(client)
    const close = () => {
      client.destroy()
      upstream.destroy()
    }
    client.on("error", close).on("close", close)
    upstream.on("error", close).on("close", close)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const listening = typeof address === "object" && address !== null ? address.port : 0
  return {
    tally,
    address: `127.0.0.1:${listening}`,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
  }
}

/**
 * MongoDB's audit relay while requests are counted: an hour, so that none runs by the clock (it
 * moves entries in batches outside requests) and the count is only what requests do.
 */
export const countedRelayIntervalMs = 60 * 60 * 1000

type Handler = (request: Request) => Promise<Response>

/** The requests whose round trips are counted: those the issue of record names, and the other common writes. */
export const measured = [
  "GET /api/v1/auth/me",
  "GET /api/v1/team/members",
  "GET /api/v1/team/roles/{id}",
  "PATCH /api/v1/team/roles/{id}",
  "PATCH /api/v1/team/roles/{id} (Idempotency-Key)",
  "POST /api/v1/team/role/add",
  "POST /api/v1/team/role-permission-detail",
  "DELETE /api/v1/team/role-permission-detail/{id}",
  "POST /api/v1/team/add",
  "PATCH /api/v1/team/members/{id}",
  "GET /api/v1/team/members (master key)",
  "GET /api/v1/team/members (API key)"
] as const
export type Measured = (typeof measured)[number]

const password = "a long enough passphrase for counting"

/**
 * Runs `measure` with the clock (`Date.now`, which Effect's clock reads) stopped at the instant it
 * starts. A session or an API key notes its minute of use off the request's path, once a minute at
 * most: with the clock stopped that is never for a session (signing in notes its minute) and once
 * for a key (its first use), so no note lands inside a count, however long the counting takes.
 */
const withClockStopped = async <A>(measure: () => Promise<A>) => {
  const realNow = Date.now
  const stopped = realNow()
  Date.now = () => stopped
  try {
    return await measure()
  } finally {
    Date.now = realNow
  }
}

/** Waits until `done` holds, asking again every few milliseconds; by tries, not by the clock, which is stopped. */
const until = async (done: () => Promise<boolean>, tries = 2000) => {
  for (let tried = 0; !(await done()); tried++) {
    if (tried >= tries) throw new Error("an API key's minute of use was never written")
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

/**
 * Round trips per request of each of `measured`, on the store `tally` counts: a member holding
 * every permission signs in, each request runs once to warm what is read once, then `times` more
 * while counted. What a request does off its path (an API key's minute of use) is written before
 * the count begins, whatever the machine's load (see `withClockStopped`).
 */
export const roundTripsOf = (handler: Handler, tally: Tally, masterKey: string, times = 5) =>
  withClockStopped(() => countEach(handler, tally, masterKey, times))

const countEach = async (handler: Handler, tally: Tally, masterKey: string, times: number) => {
  const call = async (method: string, path: string, token: string, body?: unknown, key?: string) => {
    const response = await handler(
      new Request(`http://127.0.0.1${path}`, {
        method,
        headers: {
          "content-type": "application/json",
          ...(token === "" ? {} : { authorization: `Bearer ${token}` }),
          ...(key === undefined ? {} : { "idempotency-key": key })
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
    )
    const text = await response.text()
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`)
    return text === "" ? undefined : JSON.parse(text)
  }
  const role = await call("POST", "/api/v1/team/role/add", masterKey, { name: "Counted", roleKey: "counted" })
  for (let permissionId = 1; permissionId <= 9; permissionId++) {
    await call("POST", "/api/v1/team/role-permission-detail", masterKey, { roleId: role.id, permissionId })
  }
  const member = {
    username: "counted",
    email: "counted@example.com",
    password,
    activestatus: true,
    roleId: role.id
  }
  await call("POST", "/api/v1/team/add", masterKey, member)
  const { token } = await call("POST", "/api/v1/auth/login", "", { username: "counted", password })
  const target = await call("POST", "/api/v1/team/role/add", masterKey, { name: "Target", roleKey: "target" })
  const record = await call("POST", "/api/v1/team/role-permission-detail", masterKey, {
    roleId: target.id,
    permissionId: 9
  })
  const other = await call("POST", "/api/v1/team/add", masterKey, {
    ...member,
    username: "other",
    email: "other@example.com",
    roleId: target.id
  })
  // Made at its first (uncounted) use, so that its audit entry shifts no batch of the others'.
  let key: { readonly id: string; readonly key: string } | undefined
  const apiKey = async () => {
    key ??= await call("POST", "/api/v1/organization/api-keys", masterKey, {
      name: "Counted",
      permissions: [1, 2, 3, 4, 5, 6, 7, 8]
    })
    return (key as { readonly key: string }).key
  }
  let keyNoted = false
  /** The key's first use noted its minute off the request's path: read (by the master key, which notes nothing) until written. */
  const offThePathWritten = async () => {
    if (key === undefined || keyNoted) return
    const { id } = key
    await until(
      async () => (await call("GET", `/api/v1/organization/api-keys/${id}`, masterKey)).lastUsedAt !== null
    )
    keyNoted = true
  }
  let added = 0
  let granted = 0
  let revoked = 0
  const requests: Record<Measured, () => Promise<unknown>> = {
    "GET /api/v1/auth/me": () => call("GET", "/api/v1/auth/me", token),
    "GET /api/v1/team/members": () => call("GET", "/api/v1/team/members", token),
    "GET /api/v1/team/roles/{id}": () => call("GET", `/api/v1/team/roles/${role.id}`, token),
    "PATCH /api/v1/team/roles/{id}": () =>
      call("PATCH", `/api/v1/team/roles/${role.id}`, token, { name: `Counted ${added++}` }),
    "PATCH /api/v1/team/roles/{id} (Idempotency-Key)": () =>
      call("PATCH", `/api/v1/team/roles/${role.id}`, token, { name: `Keyed ${added}` }, `key-${added++}`),
    "POST /api/v1/team/role/add": () =>
      call("POST", "/api/v1/team/role/add", token, { name: "Added", roleKey: `added-${added++}` }),
    "POST /api/v1/team/role-permission-detail": () =>
      call("POST", "/api/v1/team/role-permission-detail", token, {
        roleId: target.id,
        permissionId: ++granted
      }),
    "DELETE /api/v1/team/role-permission-detail/{id}": () =>
      call("DELETE", `/api/v1/team/role-permission-detail/${record.id}`, token, { permissionId: ++revoked }),
    "POST /api/v1/team/add": () =>
      call("POST", "/api/v1/team/add", token, {
        ...member,
        username: `added${added}`,
        email: `added${added++}@example.com`,
        roleId: target.id
      }),
    "PATCH /api/v1/team/members/{id}": () =>
      call("PATCH", `/api/v1/team/members/${other.id}`, token, { username: `other${added++}` }),
    "GET /api/v1/team/members (master key)": () => call("GET", "/api/v1/team/members", masterKey),
    "GET /api/v1/team/members (API key)": async () => call("GET", "/api/v1/team/members", await apiKey())
  }
  const counts = {} as Record<Measured, number>
  for (const name of measured) {
    await requests[name]()
    await offThePathWritten()
    tally.commands = 0
    for (let i = 0; i < times; i++) await requests[name]()
    counts[name] = tally.commands / times
  }
  return counts
}
