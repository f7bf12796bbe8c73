// The reads every client repeats (the roles list, the members list, `auth/me`) are answered before
// the router when they succeed, whatever their query: that is their one way in, and what they refuse
// the router answers as every route does. Each answer must be the router's, byte for byte: asked of
// the router alone (the way a traced server answers), it answers alike, status, headers and body, for
// every kind of caller and query, refused or not; and a read asked with or without `?` answers alike.
import { Effect, Layer, ManagedRuntime, Option, Redacted } from "effect"
import { describe, expect, it, vi } from "vitest"
import { openRouter, routerEntry } from "../../adapters/http/api-router.ts"
import { makeDirectReads } from "../../adapters/http/direct-reads.ts"
import type { KeyedRoute } from "../../adapters/http/edge/idempotency.ts"
import { RequestLog } from "../../adapters/http/edge/request-log.ts"
import type { Routed } from "../../adapters/http/edge/routed.ts"
import { pathOfUrl } from "../../adapters/http/edge/url-parts.ts"
import { webhookVerifierLayer } from "../../adapters/payments/webhook-verifier-layer.ts"
import { MemberStore, OrganizationStore, RoleLookup, StoreUnavailable } from "../../core/index.ts"
import {
  type Answer,
  changedStore,
  masterKey,
  memberWithPermissions,
  password,
  startApi,
  type TestApi
} from "../support/http.ts"
import { signedInMember, testRoster } from "../support/roster.ts"
import { tracedRuntime } from "../support/traced.ts"

const reads = ["/api/v1/team/roles", "/api/v1/team/members", "/api/v1/auth/me"]

interface Asking {
  readonly token?: string
  readonly headers?: Record<string, string>
}

/** An answer as a client sees it, but for its request id, which is each request's own. */
const seen = (answer: Answer) => {
  const headers: Array<string> = []
  answer.headers.forEach((value, name) => {
    if (name !== "x-request-id") headers.push(`${name}: ${value}`)
  })
  return { status: answer.status, headers: headers.sort(), text: answer.text }
}

/** Asks each read with no query and with an empty one; expects the same answers, and returns their statuses. */
const sameBothWays = async (api: TestApi, asking: Asking) => {
  const statuses: Array<number> = []
  for (const path of reads) {
    const direct = await api.call("GET", path, asking)
    const routed = await api.call("GET", `${path}?`, asking)
    expect(seen(direct), `${path} as ${JSON.stringify(asking)}`).toEqual(seen(routed))
    statuses.push(direct.status)
  }
  return statuses
}

const setUp = async (api: TestApi) => {
  for (let i = 0; i < 52; i++) {
    const added = await api.call("POST", "/api/v1/team/role/add", {
      token: masterKey,
      body: { name: `Role ${i}`, roleKey: `role-${i}` }
    })
    expect(added.status, added.text).toBe(200)
  }
  const reader = await memberWithPermissions(api, "ada", [1])
  const nobody = await memberWithPermissions(api, "bob", [])
  const acme = await api.call("POST", "/api/v1/organizations", {
    token: masterKey,
    body: { name: "Acme", slug: "acme" }
  })
  expect(acme.status, acme.text).toBe(200)
  const key = await api.call("POST", "/api/v1/organization/api-keys", {
    token: masterKey,
    body: { name: "Sync", permissions: ["team.read"] }
  })
  expect(key.status, key.text).toBe(200)
  const consoleSignIn = await api.call("POST", "/api/v1/auth/login", {
    body: { username: "ada", password },
    headers: { "roster-session": "cookie", origin: "http://localhost" }
  })
  const cookie = (consoleSignIn.headers.get("set-cookie") ?? "").split(";")[0] ?? ""
  expect(cookie).toMatch(/^roster_session=rss_/)
  return { reader: reader.token, nobody: nobody.token, key: key.body.key as string, cookie }
}

describe("reads answered before the router", () => {
  it("answer as the router does, a page's Link included, for every caller, allowed or refused", async () => {
    const api = await startApi()
    const { reader, nobody, key, cookie } = await setUp(api)
    const roles = await api.call("GET", "/api/v1/team/roles", { token: reader })
    expect(roles.body).toHaveLength(50)
    expect(roles.headers.get("link")).toMatch(/^<\/api\/v1\/team\/roles\?cursor=[^>]+>; rel="next"$/)
    const cases: Array<[Asking, Array<number>]> = [
      [{ token: masterKey }, [200, 200, 200]],
      [{ token: masterKey, headers: { "roster-organization": "acme" } }, [200, 200, 200]],
      [{ token: masterKey, headers: { "roster-organization": "nowhere" } }, [404, 404, 404]],
      [{ token: masterKey, headers: { "roster-organization": " " } }, [400, 400, 400]],
      [{ token: reader }, [200, 200, 200]],
      [{ token: reader, headers: { "roster-organization": "acme" } }, [403, 403, 403]],
      [{ token: nobody }, [403, 403, 200]],
      [{ token: key }, [200, 200, 200]],
      [{}, [401, 401, 401]],
      [{ token: "rss_no-such-session" }, [401, 401, 401]],
      [{ headers: { authorization: "Basic YWRhOnB3" } }, [401, 401, 401]],
      [{ headers: { cookie, "sec-fetch-site": "same-origin" } }, [200, 200, 200]],
      [{ headers: { cookie: "roster_session=rss_ended", "sec-fetch-site": "same-origin" } }, [401, 401, 401]]
    ]
    for (const [asking, statuses] of cases) {
      expect(await sameBothWays(api, asking), JSON.stringify(asking)).toEqual(statuses)
    }
  })

  it("answer as the router does in open local mode and for a session that owes its second factor", async () => {
    const open = await startApi({ mode: "open" })
    expect(await sameBothWays(open, {})).toEqual([200, 200, 200])
    const api = await startApi({ secretsKeys: ["direct-reads-test-secrets-key-of-length-01"] })
    const ada = await memberWithPermissions(api, "ada", [1])
    const required = await api.call("PATCH", "/api/v1/organization", {
      token: masterKey,
      body: { requireMfa: true }
    })
    expect(required.status, required.text).toBe(200)
    expect(await sameBothWays(api, { token: ada.token })).toEqual([403, 403, 200])
  })

  it("answer a store that does not answer as the router does, and ask it once", async () => {
    let pages = 0
    const down = Effect.fail(new StoreUnavailable())
    const api = await startApi({
      override: Layer.mergeAll(
        changedStore(RoleLookup, (store) => ({
          ...store,
          page: () =>
            Effect.andThen(
              Effect.sync(() => pages++),
              down
            )
        })),
        changedStore(MemberStore, (store) => ({ ...store, page: () => down })),
        changedStore(OrganizationStore, (store) => ({ ...store, findById: () => down }))
      )
    })
    expect(await sameBothWays(api, { token: masterKey })).toEqual([503, 503, 503])
    expect(pages, "once read directly, once through the router").toBe(2)
  })

  it("show a change at once: a role renamed is listed renamed", async () => {
    const api = await startApi()
    await api.call("POST", "/api/v1/team/role/add", { token: masterKey, body: { name: "Old", roleKey: "r" } })
    const before = await api.call("GET", "/api/v1/team/roles", { token: masterKey })
    const renamed = await api.call("PATCH", `/api/v1/team/roles/${before.body[0].id}`, {
      token: masterKey,
      body: { name: "New" }
    })
    expect(renamed.status, renamed.text).toBe(200)
    const after = await api.call("GET", "/api/v1/team/roles", { token: masterKey })
    expect(after.body.map((role: { name: string }) => role.name)).toEqual(["New"])
  })
})

describe("which requests are read before the router", () => {
  const services = Layer.mergeAll(
    testRoster(),
    webhookVerifierLayer({ scheme: "unsigned" }),
    Layer.succeed(RequestLog)(() => {})
  )
  const request = (url: string, init: RequestInit = {}) => new Request(`http://localhost${url}`, init)

  it("a GET of a read's path without a body, whatever its query; nothing else, and nothing on a traced server", async () => {
    const runtime = ManagedRuntime.make(services)
    const direct = await makeDirectReads(runtime, await runtime.context())
    const readOf = (url: string, init?: RequestInit) => direct.readOf(request(url, init), pathOfUrl(url))
    for (const path of reads) expect(readOf(path), path).toBeDefined()
    expect(readOf("/api/v1/team/roles?")).toBeDefined()
    expect(readOf("/api/v1/team/roles?limit=5")).toBeDefined()
    expect(readOf("/api/v1/team/roles/1")).toBeUndefined()
    expect(readOf("/api/v1/team/roles", { method: "HEAD" })).toBeUndefined()
    expect(readOf("/api/v1/team/roles", { method: "POST", body: "{}" })).toBeUndefined()
    expect(readOf("/api/v1/team/roles/", {})).toBeUndefined()
    const traced = tracedRuntime(services)
    const tracedReads = await makeDirectReads(traced, await traced.context())
    expect(tracedReads.readOf(request("/api/v1/team/roles"), "/api/v1/team/roles")).toBeUndefined()
    await Promise.all([runtime.dispose(), traced.dispose()])
  })

  it("answers what succeeds itself, and hands the router the rest, with the caller it identified", async () => {
    const runtime = ManagedRuntime.make(services)
    const direct = await makeDirectReads(runtime, await runtime.context())
    const nobody = await runtime.runPromise(signedInMember("nobody", []))
    const route = vi.fn<KeyedRoute>(async () => new Response("routed"))
    const ask = (bearer: Routed["bearer"], organization?: string) => {
      const path = "/api/v1/team/roles"
      const read = direct.readOf(request(path), path)
      if (read === undefined) throw new Error("the roles list is read directly")
      const record: Routed = { requestId: "r", path, connection: undefined, bearer, organization }
      return direct.answer(read, request(path), record, route)
    }
    const answered = await ask(Option.some(Redacted.make(masterKey)))
    expect(answered.status).toBe(200)
    expect((await answered.json()).map((role: { name: string }) => role.name)).toEqual(["nobody-role"])
    expect(route).not.toHaveBeenCalled()
    expect(await (await ask(Option.some(nobody.token))).text()).toBe("routed")
    expect(route).toHaveBeenLastCalledWith(expect.any(Request), {
      caller: expect.objectContaining({ principal: expect.objectContaining({ _tag: "Member" }) })
    })
    for (const [bearer, organization] of [
      [Option.some(Redacted.make("rss_none")), undefined],
      ["malformed", undefined],
      [Option.some(Redacted.make(masterKey)), "nowhere"],
      [Option.some(Redacted.make(masterKey)), ""]
    ] as const) {
      expect(await (await ask(bearer, organization)).text()).toBe("routed")
      expect(route).toHaveBeenLastCalledWith(expect.any(Request), {})
    }
    expect(route).toHaveBeenCalledTimes(5)
    await runtime.dispose()
  })
})

describe("a read's one way in", () => {
  const services = Layer.mergeAll(
    testRoster(),
    webhookVerifierLayer({ scheme: "unsigned" }),
    Layer.succeed(RequestLog)(() => {})
  )

  /** An answer's status, headers and body, to compare byte for byte. */
  const whole = async (response: Response) => {
    const headers: Array<string> = []
    response.headers.forEach((value, name) => void headers.push(`${name}: ${value}`))
    return { status: response.status, headers: headers.sort(), body: await response.text() }
  }

  it("answers every query as the router alone does, refusals included", async () => {
    const { runtime, context, web } = await openRouter(services, { maxBodyBytes: 1024, openLocal: false })
    const direct = await makeDirectReads(runtime, context)
    const route = routerEntry(web, context)
    const nobody = await runtime.runPromise(signedInMember("nobody", []))
    const reader = await runtime.runPromise(signedInMember("reader", ["team.read"]))
    for (let i = 0; i < 3; i++) await runtime.runPromise(signedInMember(`member-${i}`, ["team.read"]))
    /** The answer of `target` asked before the router, and of the router alone. */
    const bothWays = async (target: string, bearer: Routed["bearer"], organization?: string) => {
      const path = pathOfUrl(target)
      const record: Routed = { requestId: "r", path, connection: undefined, bearer, organization }
      const url = `http://localhost${target}`
      const read = direct.readOf(new Request(url), path)
      if (read === undefined) throw new Error(`${target} is read directly`)
      return {
        directly: await whole(await direct.answer(read, new Request(url), record, route(record))),
        routed: await whole(await route(record)(new Request(url)))
      }
    }
    const master = Option.some(Redacted.make(masterKey))
    const firstPage = await bothWays("/api/v1/team/roles?limit=1", master)
    const next = /cursor=([^&>]+)/.exec(firstPage.directly.headers.join("\n"))?.[1]
    expect(next, "a first page of one role links to the next").toBeDefined()
    const queries: Record<string, ReadonlyArray<string>> = {
      "/api/v1/team/roles": [
        "",
        "?",
        "?limit=1",
        "?limit=2&limit=3",
        `?limit=1&cursor=${next}`,
        "?limit=0",
        "?limit=x",
        "?cursor=nonsense",
        "?other=1"
      ],
      "/api/v1/team/members": [
        "",
        "?limit=2",
        "?active=true",
        "?q=mem",
        "?roleId=1",
        "?roleId=x",
        "?permission=team.read",
        "?permission=no.such",
        "?active=maybe"
      ],
      "/api/v1/auth/me": ["", "?", "?limit=x"]
    }
    const callers: ReadonlyArray<[string, Routed["bearer"], string | undefined]> = [
      ["the master key", master, undefined],
      ["a reader", Option.some(reader.token), undefined],
      ["a member holding nothing", Option.some(nobody.token), undefined],
      ["no credentials", Option.none(), undefined],
      ["an unknown session", Option.some(Redacted.make("rss_none")), undefined],
      ["a malformed header", "malformed", undefined],
      ["an unknown organisation", master, "nowhere"]
    ]
    const statuses = new Set<number>()
    for (const [path, asked] of Object.entries(queries)) {
      for (const query of asked) {
        for (const [who, bearer, organization] of callers) {
          const { directly, routed } = await bothWays(`${path}${query}`, bearer, organization)
          expect(directly, `${path}${query} as ${who}`).toEqual(routed)
          statuses.add(directly.status)
        }
      }
    }
    expect([...statuses].sort()).toEqual([200, 400, 401, 403, 404, 422])
    await web.dispose()
    await runtime.dispose()
  })
})
