import { describe, expect, it } from "vitest"
import type { Resolve } from "../../adapters/webhooks/http-webhook-sender.ts"
import { eventCatalog } from "../../core/index.ts"
import { expectProblem, masterKey, memberWithPermissions, startApi, type TestApi } from "../support/http.ts"

const webhooks = "/api/v1/organization/webhooks"
const asMaster = { token: masterKey }
const inAcme = { token: masterKey, headers: { "roster-organization": "acme" } }
/** Names resolve to a public address, but `inside.example`: no network is needed. */
const resolve: Resolve = async (hostname) => [
  { address: hostname === "inside.example" ? "10.1.2.3" : "93.184.216.34", family: 4 }
]
const start = () => startApi({ webhooks: { resolve } })

const create = async (api: TestApi, body: Record<string, unknown> = {}, credentials = asMaster) => {
  const created = await api.call("POST", webhooks, {
    ...credentials,
    body: { url: "https://hooks.example.com/roster", events: ["*"], ...body }
  })
  expect(created.status, created.text).toBe(200)
  return created.body as { id: string; secret: string }
}

describe("webhook endpoints over HTTP", () => {
  it("publish the catalog with a JSON Schema per type, to callers who are signed in", async () => {
    const api = await start()
    expectProblem(await api.call("GET", "/api/v1/event-types"), 401, "unauthorized")
    const catalog = await api.call("GET", "/api/v1/event-types", asMaster)
    expect(catalog.status).toBe(200)
    const types = catalog.body.map((each: { type: string }) => each.type)
    expect(types).toEqual(expect.arrayContaining(["member.removed", "subscription.updated", "webhook.test"]))
    const removed = catalog.body.find((each: { type: string }) => each.type === "member.removed")
    expect(removed.schema).toMatchObject({
      type: "object",
      required: expect.arrayContaining(["organizationId", "member"])
    })
  })

  it("show the signing secret once, never after, and keep it out of the record; a replay carries null", async () => {
    const api = await start()
    const made = await create(api, { description: "Sync" })
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/u)
    const read = await api.call("GET", `${webhooks}/${made.id}`, asMaster)
    expect(read.body).toEqual({
      id: made.id,
      url: "https://hooks.example.com/roster",
      events: ["*"],
      enabled: true,
      description: "Sync",
      createdAt: expect.any(String),
      createdBy: { kind: "master" },
      effectiveEvents: expect.arrayContaining(["member.added", "subscription.updated", "api_key.created"])
    })
    expect(read.body.effectiveEvents).toHaveLength(Object.keys(eventCatalog).length)
    const listed = await api.call("GET", webhooks, asMaster)
    expect(listed.text).not.toContain(made.secret.slice(6))
    const audit = await api.call("GET", "/api/v1/audit/events?action=webhook.created", asMaster)
    expect(audit.body).toHaveLength(1)
    expect(audit.text).not.toContain(made.secret.slice(6))
    const headers = { "idempotency-key": "make-once" }
    const body = { url: "https://hooks.example.com/once", events: ["member.removed"] }
    const first = await api.call("POST", webhooks, { ...asMaster, headers, body })
    const again = await api.call("POST", webhooks, { ...asMaster, headers, body })
    expect(again.body).toEqual({ ...first.body, secret: null })
    expect((await api.call("GET", webhooks, asMaster)).body).toHaveLength(2)
    const rotated = await api.call("POST", `${webhooks}/${made.id}/rotate-secret`, asMaster)
    expect(rotated.body.secret).toMatch(/^whsec_/u)
    expect(rotated.body.secret).not.toBe(made.secret)
  })

  it("refuse bad input with a problem and change nothing", async () => {
    const api = await start()
    const bad = [
      { url: "ftp://hooks.example.com/", events: ["*"] },
      { url: "https://user:pass@hooks.example.com/", events: ["*"] },
      { url: "hooks.example.com", events: ["*"] },
      { url: "https://hooks.example.com/a b", events: ["*"] },
      { url: "https://hooks.example.com/", events: [] },
      { url: "https://hooks.example.com/", events: ["member.exploded"] },
      { url: "https://hooks.example.com/", events: ["*", "member.added"] },
      { url: "https://hooks.example.com/", events: ["*"], description: "x".repeat(501) },
      { url: "https://hooks.example.com/", events: ["*"], extra: true },
      { url: `https://hooks.example.com/${"x".repeat(2048)}`, events: ["*"] }
    ]
    for (const body of bad)
      expectProblem(await api.call("POST", webhooks, { ...asMaster, body }), 400, "validation_failed")
    for (const url of ["http://hooks.example.com/", "https://10.0.0.1/", "https://inside.example/"]) {
      const refused = expectProblem(
        await api.call("POST", webhooks, { ...asMaster, body: { url, events: ["*"] } }),
        400,
        "validation_failed"
      )
      expect(refused.errors).toEqual([{ path: "body.url", message: expect.any(String) }])
    }
    expect((await api.call("GET", webhooks, asMaster)).body).toEqual([])
    const made = await create(api)
    expectProblem(
      await api.call("PATCH", `${webhooks}/${made.id}`, {
        ...asMaster,
        body: { url: "https://inside.example/" }
      }),
      400,
      "validation_failed"
    )
    expectProblem(
      await api.call("GET", `${webhooks}/${made.id}/deliveries?status=lost`, asMaster),
      400,
      "validation_failed"
    )
    expectProblem(
      await api.call("GET", `${webhooks}/${made.id}/deliveries?cursor=%%%`, asMaster),
      400,
      "validation_failed"
    )
    expect((await api.call("GET", `${webhooks}/${made.id}`, asMaster)).body.url).toBe(
      "https://hooks.example.com/roster"
    )
  })

  it("are at most twenty per organisation", async () => {
    const api = await start()
    for (let i = 0; i < 20; i++) await create(api, { url: `https://hooks.example.com/${i}` })
    expectProblem(
      await api.call("POST", webhooks, {
        ...asMaster,
        body: { url: "https://hooks.example.com/21", events: ["*"] }
      }),
      409,
      "webhook_limit"
    )
    await api.call("POST", "/api/v1/organizations", { ...asMaster, body: { name: "Acme", slug: "acme" } })
    await create(api, {}, inAcme)
  })

  it("are changed only by holders of organization.webhooks.write, and only in their own organisation", async () => {
    const api = await start()
    const made = await create(api)
    const test = await api.call("POST", `${webhooks}/${made.id}/test`, asMaster)
    expect(test.body).toMatchObject({ type: "webhook.test", status: "pending", attempts: 0 })
    const reader = await memberWithPermissions(api, "reader", [1])
    const asReader = { token: reader.token }
    expect((await api.call("GET", webhooks, asReader)).body).toHaveLength(1)
    expect((await api.call("GET", `${webhooks}/${made.id}/deliveries`, asReader)).body).toHaveLength(1)
    const attempts = [
      ["POST", webhooks, { url: "https://hooks.example.com/mine", events: ["*"] }],
      ["PATCH", `${webhooks}/${made.id}`, { enabled: false }],
      ["DELETE", `${webhooks}/${made.id}`],
      ["POST", `${webhooks}/${made.id}/rotate-secret`],
      ["POST", `${webhooks}/${made.id}/test`],
      ["POST", `${webhooks}/${made.id}/deliveries/${test.body.id}/retry`]
    ] as const
    for (const [method, path, body] of attempts) {
      const refused = expectProblem(await api.call(method, path, { ...asReader, body }), 403, "forbidden")
      expect(refused.permission).toBe("organization.webhooks.write")
    }
    const nobody = await memberWithPermissions(api, "nobody", [])
    expectProblem(await api.call("GET", webhooks, { token: nobody.token }), 403, "forbidden")
    await api.call("POST", "/api/v1/organizations", { ...asMaster, body: { name: "Acme", slug: "acme" } })
    for (const [method, path, body] of [
      ["GET", `${webhooks}/${made.id}`],
      ["GET", `${webhooks}/${made.id}/deliveries`],
      ...attempts.slice(1)
    ] as const) {
      expectProblem(await api.call(method, path, { ...inAcme, body }), 404, "not_found")
    }
    const theirs = await create(api, {}, inAcme)
    expectProblem(
      await api.call("POST", `${webhooks}/${theirs.id}/deliveries/${test.body.id}/retry`, inAcme),
      404,
      "not_found"
    )
    const mine = await api.call("GET", `${webhooks}/${made.id}`, asMaster)
    expect(mine.body.enabled, "nothing changed").toBe(true)
    expect((await api.call("GET", `${webhooks}/${made.id}/deliveries`, asMaster)).body).toHaveLength(1)
  })
})
