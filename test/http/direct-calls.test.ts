// The calls a product repeats (`POST /authorize`, `POST /auth/token`) are answered before the router
// when they succeed: that is their one way in, and what they refuse the router answers as every route
// does. Each answer must be the router's: asked of the router alone (the way a traced server answers),
// it answers alike, status, headers and body, for every kind of caller and body, refused or not. A
// token's signature and id are its own: two tokens are alike when their claims are, but for those.

import { Layer, ManagedRuntime, Option, Redacted } from "effect"
import { decodeJwt, decodeProtectedHeader } from "jose"
import { describe, expect, it, vi } from "vitest"
import { openRouter, routerEntry } from "../../adapters/http/api-router.ts"
import { makeDirectReads } from "../../adapters/http/direct-reads.ts"
import { withBodyRead } from "../../adapters/http/edge/body-in-hand.ts"
import type { KeyedRoute } from "../../adapters/http/edge/idempotency.ts"
import { RequestLog } from "../../adapters/http/edge/request-log.ts"
import type { Routed } from "../../adapters/http/edge/routed.ts"
import { webhookVerifierLayer } from "../../adapters/payments/webhook-verifier-layer.ts"
import { masterKey } from "../support/http.ts"
import { signedInMember, testRoster } from "../support/roster.ts"
import { tracedRuntime } from "../support/traced.ts"

const services = Layer.mergeAll(
  testRoster({ secretsKeys: ["direct-calls-test-secrets-key-of-length-01"] }),
  webhookVerifierLayer({ scheme: "unsigned" }),
  Layer.succeed(RequestLog)(() => {})
)
const base = "http://localhost"
const master = Option.some(Redacted.make(masterKey))

const json = { "content-type": "application/json" }

/** A POST whose body the edge has read, as it hands every POST on (its type made JSON's). */
const posted = (path: string, body: string | undefined) => {
  const request = new Request(`${base}${path}`, { method: "POST", body: body ?? null, headers: json })
  return body === undefined ? request : withBodyRead(request, new TextEncoder().encode(body), body)
}

/** An answer's status, headers and body; a token's claims but its id, its times' span kept. */
const whole = async (response: Response) => {
  const headers: Array<string> = []
  response.headers.forEach((value, name) => void headers.push(`${name}: ${value}`))
  const text = await response.text()
  const token =
    response.status === 200 ? (JSON.parse(text) as { accessToken?: string }).accessToken : undefined
  if (token === undefined) return { status: response.status, headers: headers.sort(), body: text }
  const { jti, iat, exp, ...claims } = decodeJwt(token)
  expect(jti).toMatch(/^\S+$/)
  return {
    status: response.status,
    headers: headers.sort(),
    body: {
      ...JSON.parse(text),
      accessToken: { header: decodeProtectedHeader(token), claims, lives: (exp ?? 0) - (iat ?? 0) }
    }
  }
}

const opened = async () => {
  const { runtime, context, web } = await openRouter(services, { maxBodyBytes: 64 * 1024, openLocal: false })
  const direct = await makeDirectReads(runtime, context)
  const route = routerEntry(web, context)
  const as = (bearer: Routed["bearer"], path: string, organization?: string): Routed => ({
    requestId: "r",
    path,
    connection: undefined,
    bearer,
    organization
  })
  /** Asks the router alone, as the master key. */
  const routed = async (method: string, path: string, body: unknown) => {
    const response = await route(as(master, path))(
      new Request(`${base}${path}`, { method, body: JSON.stringify(body), headers: json })
    )
    expect(response.status, await response.clone().text()).toBe(200)
    return (await response.json()) as Record<string, unknown>
  }
  return {
    runtime,
    direct,
    route,
    as,
    routed,
    dispose: () => Promise.all([web.dispose(), runtime.dispose()])
  }
}

const checks = (...asked: ReadonlyArray<unknown>) => JSON.stringify({ checks: asked })

describe("a call's one way in", () => {
  it("answers every body and caller as the router alone does, refusals included", async () => {
    const { runtime, direct, route, as, routed, dispose } = await opened()
    const reader = await runtime.runPromise(signedInMember("reader", ["team.read"]))
    const nobody = await runtime.runPromise(signedInMember("nobody", []))
    await routed("PUT", "/api/v1/permissions/projects.delete", { description: "Delete a project" })
    const key = await routed("POST", "/api/v1/organization/api-keys", {
      name: "Sync",
      permissions: ["team.read"]
    })
    await routed("POST", "/api/v1/organizations", { name: "Acme", slug: "acme" })
    const hundred = Array.from({ length: 100 }, (_, i) => ({
      permission: i % 3 === 0 ? "team.read" : i % 3 === 1 ? (i % 12) + 1 : "projects.delete",
      ...(i % 4 === 0 ? { member: reader.member.id } : i % 4 === 1 ? { member: nobody.member.id } : {})
    }))
    const bodies: ReadonlyArray<string | undefined> = [
      checks({ permission: "team.read" }),
      checks({ permission: 1 }, { permission: "projects.delete" }, { permission: "team.read" }),
      checks(
        { permission: "team.read", member: reader.member.id },
        { permission: 2, member: "no-such-member" }
      ),
      checks({ permission: "team.read", member: "" }),
      JSON.stringify({ checks: hundred }),
      JSON.stringify({ checks: [...hundred, { permission: 1 }] }),
      checks(),
      checks({ permission: "no.such" }),
      checks({ permission: 5000 }),
      checks({ permission: 0 }),
      checks({ permission: 1.5 }),
      checks({ permission: "" }),
      checks({ permission: "x".repeat(101) }),
      checks({ permission: "team.read", member: 5 }),
      checks({ permission: "team.read", extra: true }),
      checks({ member: reader.member.id }),
      JSON.stringify({ checks: [{ permission: "team.read" }], other: 1 }),
      JSON.stringify({ checks: { permission: "team.read" } }),
      "[]",
      "null",
      "{",
      `\uFEFF${checks({ permission: "team.read" })}`,
      ""
    ]
    const callers: ReadonlyArray<[string, Routed["bearer"], string | undefined]> = [
      ["a reader", Option.some(reader.token), undefined],
      ["a member holding nothing", Option.some(nobody.token), undefined],
      ["an API key", Option.some(Redacted.make(key.key as string)), undefined],
      ["the master key", master, undefined],
      ["a reader elsewhere", Option.some(reader.token), "acme"],
      ["no credentials", Option.none(), undefined],
      ["an unknown session", Option.some(Redacted.make("rss_none")), undefined],
      ["a malformed header", "malformed", undefined],
      ["an unknown organisation", master, "nowhere"]
    ]
    const statuses = new Map<string, Set<number>>()
    const bothWays = async (
      path: string,
      body: string | undefined,
      who: string,
      bearer: Routed["bearer"],
      organization?: string
    ) => {
      const record = as(bearer, path, organization)
      const call = direct.callOf(posted(path, body), path)
      if (call === undefined) throw new Error(`${path} is called directly`)
      const directly = await whole(await direct.answer(call, posted(path, body), record, route(record)))
      const alone = await whole(await route(record)(posted(path, body)))
      expect(directly, `${path} ${body?.slice(0, 80)} as ${who}`).toEqual(alone)
      const seen = statuses.get(path) ?? new Set()
      statuses.set(path, seen.add(directly.status))
    }
    for (const body of bodies) {
      for (const [who, bearer, organization] of callers)
        await bothWays("/api/v1/authorize", body, who, bearer, organization)
    }
    for (const body of [undefined, "", "{}", "not json"]) {
      for (const [who, bearer, organization] of callers)
        await bothWays("/api/v1/auth/token", body, who, bearer, organization)
    }
    expect([...(statuses.get("/api/v1/authorize") ?? [])].sort()).toEqual([200, 400, 401, 403, 404, 422])
    expect([...(statuses.get("/api/v1/auth/token") ?? [])].sort()).toEqual([200, 401, 403, 404])
    await dispose()
  })

  it("answers what succeeds itself, and hands the router the rest, with the caller it identified", async () => {
    const { runtime, direct, as, dispose } = await opened()
    const reader = await runtime.runPromise(signedInMember("reader", ["team.read"]))
    const route = vi.fn<KeyedRoute>(async () => new Response("routed"))
    const ask = async (body: string, bearer: Routed["bearer"]) => {
      const path = "/api/v1/authorize"
      const call = direct.callOf(posted(path, body), path)
      if (call === undefined) throw new Error("authorize is called directly")
      return (await direct.answer(call, posted(path, body), as(bearer, path), route)).text()
    }
    const answered = JSON.parse(await ask(checks({ permission: "team.read" }), Option.some(reader.token)))
    expect(answered).toEqual({
      results: [{ permission: "team.read", member: reader.member.id, allowed: true, reason: "granted" }]
    })
    expect(route).not.toHaveBeenCalled()
    for (const body of [checks({ permission: "no.such" }), checks(), "{"]) {
      expect(await ask(body, Option.some(reader.token))).toBe("routed")
      expect(route).toHaveBeenLastCalledWith(expect.any(Request), {
        caller: expect.objectContaining({ principal: expect.objectContaining({ _tag: "Member" }) })
      })
    }
    expect(await ask(checks({ permission: "team.read" }), Option.some(Redacted.make("rss_none")))).toBe(
      "routed"
    )
    expect(route).toHaveBeenLastCalledWith(expect.any(Request), {})
    expect(route).toHaveBeenCalledTimes(4)
    await dispose()
  })
})

describe("which requests are called before the router", () => {
  it("a POST at a call's path; nothing else, and nothing on a traced server", async () => {
    const runtime = ManagedRuntime.make(services)
    const direct = await makeDirectReads(runtime, await runtime.context())
    const callOf = (path: string, method = "POST") =>
      direct.callOf(
        new Request(`${base}${path}`, { method, ...(method === "POST" ? { body: "{}" } : {}) }),
        path
      )
    expect(callOf("/api/v1/authorize")).toBeDefined()
    expect(callOf("/api/v1/auth/token")).toBeDefined()
    expect(callOf("/api/v1/authorize", "GET")).toBeUndefined()
    expect(callOf("/api/v1/authorize", "PUT")).toBeUndefined()
    expect(callOf("/api/v1/authorize/")).toBeUndefined()
    expect(callOf("/api/v1/auth/login")).toBeUndefined()
    expect(callOf("/api/v1/team/role/add")).toBeUndefined()
    const traced = tracedRuntime(services)
    const tracedCalls = await makeDirectReads(traced, await traced.context())
    expect(
      tracedCalls.callOf(
        new Request(`${base}/api/v1/authorize`, { method: "POST", body: "{}" }),
        "/api/v1/authorize"
      )
    ).toBeUndefined()
    await Promise.all([runtime.dispose(), traced.dispose()])
  })
})
