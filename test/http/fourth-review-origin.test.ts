// What a fourth outside review did with the request target: a path that names another host
// (`//evil.example/…`, an absolute-form URL) must never make that host the service's own origin.
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { serve } from "@hono/node-server"
import { Hono } from "hono"
import { afterAll, describe, expect, it } from "vitest"
import { toNodeHandler, toWebHandler } from "../../adapters/http/index.ts"
import {
  everyPermission,
  masterKey,
  memberWithPermissions,
  password,
  startApi,
  type TestApi
} from "../support/http.ts"
import { type RawAnswer, rawRequest } from "../support/raw-request.ts"

const servers: Array<Server> = []
afterAll(() => Promise.all(servers.map((server) => new Promise((done) => server.close(done)))))

/** The service behind `node:http` through `toNodeHandler`, as docs/embedding.md mounts it. */
const listening = async (api: TestApi, basePath?: string) => {
  const server = createServer(toNodeHandler(api.web, basePath === undefined ? {} : { basePath }))
  servers.push(server)
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
  return (server.address() as AddressInfo).port
}

const evil = "http://evil.example"
/** Each way a request target can name evil.example, with the prefix a mount is under. */
const targetsNaming = (path: string, prefix = "") => [
  `${prefix}//evil.example${path}`,
  `${evil}${prefix}${path}`
]

const roleCount = async (api: TestApi) =>
  (await api.call("GET", "/api/v1/team/roles", { token: masterKey })).body.length as number

const json = (answer: RawAnswer) => JSON.parse(answer.text)

/** Never answered as evil.example's own: refused as cross-site, or a path of this host that does not exist. */
const expectNotServed = (answer: RawAnswer, target: string) => {
  expect(answer.headers["content-type"], target).toMatch(/^application\/problem\+json/u)
  expect(["cross_site", "not_found"], `${target}: ${answer.text}`).toContain(json(answer).code)
}

describe("a request target naming another host, through toNodeHandler", () => {
  it("a login posted cross-site from evil.example to //evil.example/… is not counted: the owner's attempts stay untouched", async () => {
    const api = await startApi({ throttle: { maxFailuresPerAccount: 1, maxFailuresPerClient: 1 } })
    await memberWithPermissions(api, "ada", [1])
    const port = await listening(api)
    for (const target of targetsNaming("/api/v1/auth/login")) {
      for (let attempt = 0; attempt < 3; attempt++) {
        const answer = await rawRequest(
          port,
          "POST",
          target,
          { host: `127.0.0.1:${port}`, origin: evil, "content-type": "text/plain" },
          JSON.stringify({ username: "ada", password: "a wrong guess" })
        )
        expectNotServed(answer, target)
      }
    }
    const login = await api.call("POST", "/api/v1/auth/login", { body: { username: "ada", password } })
    expect(login.status, login.text).toBe(200)
  })

  it("a write from evil.example carrying the console's cookie is refused, and nothing is written", async () => {
    const api = await startApi()
    const { token } = await memberWithPermissions(api, "ada", everyPermission)
    const port = await listening(api)
    const before = await roleCount(api)
    for (const [index, target] of targetsNaming("/api/v1/team/role/add").entries()) {
      const answer = await rawRequest(
        port,
        "POST",
        target,
        {
          host: `127.0.0.1:${port}`,
          origin: evil,
          cookie: `roster_session=${token}`,
          "content-type": "application/json"
        },
        JSON.stringify({ name: "Planted", roleKey: `planted-${index}` })
      )
      expectNotServed(answer, target)
    }
    expect(await roleCount(api)).toBe(before)
  })

  it("under a basePath, and through the fetch handler under a basePath, the same write changes nothing", async () => {
    const api = await startApi()
    const { token } = await memberWithPermissions(api, "ada", everyPermission)
    const port = await listening(api, "/roster")
    const headers = {
      origin: evil,
      cookie: `roster_session=${token}`,
      "content-type": "application/json"
    }
    const body = JSON.stringify({ name: "Planted", roleKey: "planted" })
    const before = await roleCount(api)
    for (const target of targetsNaming("/api/v1/team/role/add", "/roster")) {
      expectNotServed(
        await rawRequest(port, "POST", target, { host: `127.0.0.1:${port}`, ...headers }, body),
        target
      )
    }
    const fetched = await toWebHandler(api.web, { basePath: "/roster" })(
      new Request("http://roster.test/roster//evil.example/api/v1/team/role/add", {
        method: "POST",
        headers,
        body
      })
    )
    expectNotServed(
      {
        status: fetched.status,
        headers: { "content-type": fetched.headers.get("content-type") ?? undefined },
        text: await fetched.text()
      },
      fetched.url
    )
    expect(await roleCount(api)).toBe(before)
  })

  it("the fetch handler behind Hono's Node server, which puts an absolute-form target's host in the URL, takes the Host", async () => {
    const api = await startApi()
    const { token } = await memberWithPermissions(api, "ada", everyPermission)
    const app = new Hono()
    const roster = toWebHandler(api.web, { basePath: "/roster" })
    const plain = toWebHandler(api.web)
    app.all("/roster/*", (c) => roster(c.req.raw))
    app.all("/api/*", (c) => plain(c.req.raw))
    const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }) as unknown as Server
    servers.push(server)
    await new Promise<void>((done) => (server.listening ? done() : server.once("listening", done)))
    const port = (server.address() as AddressInfo).port
    const before = await roleCount(api)
    for (const [index, target] of [
      `${evil}/roster/api/v1/team/role/add`,
      `${evil}/api/v1/team/role/add`
    ].entries()) {
      const answer = await rawRequest(
        port,
        "POST",
        target,
        {
          host: `127.0.0.1:${port}`,
          origin: evil,
          cookie: `roster_session=${token}`,
          "content-type": "application/json"
        },
        JSON.stringify({ name: "Planted", roleKey: `planted-${index}` })
      )
      expectNotServed(answer, target)
    }
    expect(await roleCount(api)).toBe(before)
  })

  it("a target that is no path, or a Host that is no host, is 400 with problem details", async () => {
    const api = await startApi()
    const port = await listening(api)
    const expectRefused = (answer: RawAnswer, what: string) => {
      expect(answer.status, `${what}: ${answer.text}`).toBe(400)
      expect(answer.headers["content-type"]).toMatch(/^application\/problem\+json/u)
      expect(json(answer)).toMatchObject({ status: 400, code: "validation_failed" })
    }
    for (const host of ["ada@evil.example", "evil.example/path"])
      expectRefused(await rawRequest(port, "GET", "/api/v1/health", { host }), host)
    const asterisk = await rawRequest(port, "GET", "*", { host: `127.0.0.1:${port}` })
    // Node hands `*` on to the handler; Bun's node:http answers it 400 itself, with no body.
    if (process.versions.bun === undefined) expectRefused(asterisk, "*")
    else expect(asterisk.status).toBe(400)
  })

  it("a plain path and an absolute-form URL naming this very host are served as before", async () => {
    const api = await startApi()
    const port = await listening(api)
    for (const target of ["/api/v1/team/roles", `http://127.0.0.1:${port}/api/v1/team/roles`]) {
      const answer = await rawRequest(port, "GET", target, {
        host: `127.0.0.1:${port}`,
        authorization: `Bearer ${masterKey}`
      })
      expect(answer.status, `${target}: ${answer.text}`).toBe(200)
    }
  })
})

describe("a sign-in started at a target naming another host", () => {
  /** Every redirect goes to this service (`own`) or a path of it, never to evil.example. */
  const expectNoRedirectAway = (answer: RawAnswer, own: string, target: string) => {
    const location = answer.headers.location
    expect(typeof location === "string" ? location : "", `${target}: ${answer.status}`).not.toMatch(
      /evil\.example/u
    )
    if (typeof location === "string")
      expect(location.startsWith(`${own}/`) || /^\/(?!\/)/u.test(location)).toBe(true)
  }

  it("never redirects to evil.example, through toNodeHandler, under a basePath, and the fetch handler under one", async () => {
    const api = await startApi()
    const port = await listening(api)
    const own = `http://127.0.0.1:${port}`
    for (const target of targetsNaming("/api/v1/sso/start?organization=x")) {
      const answer = await rawRequest(port, "GET", target, { host: `127.0.0.1:${port}` })
      expectNoRedirectAway(answer, own, target)
    }
    // The sign-in itself still answers at this host's own path, with its refusal sent home.
    const home = await rawRequest(port, "GET", "/api/v1/sso/start?organization=x", {
      host: `127.0.0.1:${port}`
    })
    expect(home.status).toBe(302)
    expect(home.headers.location).toBe(`${own}/console/?error=sso_refused`)
    const prefixed = await listening(api, "/roster")
    for (const target of targetsNaming("/api/v1/sso/start?organization=x", "/roster")) {
      const answer = await rawRequest(prefixed, "GET", target, { host: `127.0.0.1:${prefixed}` })
      expectNoRedirectAway(answer, `http://127.0.0.1:${prefixed}`, target)
    }
    const fetched = await toWebHandler(api.web, { basePath: "/roster" })(
      new Request("http://roster.test/roster//evil.example/api/v1/sso/start?organization=x")
    )
    expect(fetched.headers.get("location") ?? "").not.toMatch(/evil\.example/u)
  })
})
