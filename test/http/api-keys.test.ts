import { describe, expect, it } from "vitest"
import { withClockAhead } from "../support/clock.ts"
import { eventually } from "../support/eventually.ts"
import {
  type Credentials,
  expectProblem,
  masterKey,
  memberWithPermissions,
  password,
  startApi,
  type TestApi
} from "../support/http.ts"

const keys = "/api/v1/organization/api-keys"
const asMaster = { token: masterKey }
const inAcme = { token: masterKey, headers: { "roster-organization": "acme" } }

const createKey = async (
  api: TestApi,
  permissions: ReadonlyArray<number | string>,
  credentials: Credentials = asMaster,
  more: Record<string, unknown> = {}
) => {
  const created = await api.call("POST", keys, {
    ...credentials,
    body: { name: "Sync", permissions, ...more }
  })
  expect(created.status, created.text).toBe(200)
  return { id: created.body.id as string, key: created.body.key as string, body: created.body }
}

const acme = async (api: TestApi) => {
  const created = await api.call("POST", "/api/v1/organizations", {
    ...asMaster,
    body: { name: "Acme", slug: "acme" }
  })
  expect(created.status, created.text).toBe(200)
  return created.body as { id: string; ownerRoleId: number }
}

describe("API keys", () => {
  it("are shown once, listed and read without the key, act with their permissions and say who they are", async () => {
    const api = await startApi()
    const { id, key, body } = await createKey(api, ["team.read", 8, 1])
    expect(key).toMatch(/^rk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/)
    expect(body).toMatchObject({
      name: "Sync",
      start: key.slice(0, 10),
      permissions: [1, 8],
      createdBy: { kind: "master" },
      expiresAt: null,
      lastUsedAt: null
    })
    const listed = await api.call("GET", keys, asMaster)
    expect(listed.body.map((found: { id: string }) => found.id)).toEqual([id])
    expect(listed.text).not.toContain(key.slice(14))
    const read = await api.call("GET", `${keys}/${id}`, asMaster)
    expect(read.body).toEqual({ ...body, key: undefined })
    expect(read.text).not.toContain(key.slice(14))
    const me = await api.call("GET", "/api/v1/auth/me", { token: key })
    expect(me.status, me.text).toBe(200)
    expect(me.body).toMatchObject({
      principal: { kind: "api_key", id, name: "Sync" },
      organization: { id: "default" },
      permissions: ["team.read", "audit.read"]
    })
    expect((await api.call("GET", "/api/v1/team/members", { token: key })).status).toBe(200)
    expectProblem(
      await api.call("POST", "/api/v1/team/role/add", { token: key, body: { name: "X", roleKey: "x" } }),
      403,
      "forbidden"
    )
    // The last use is written off the request's path, so it lands a little after the answer.
    const lastRead = await eventually(
      () => api.call("GET", `${keys}/${id}`, asMaster),
      (answer) => answer.body.lastUsedAt !== null,
      { intervalMs: 20 }
    )
    const used = lastRead.body.lastUsedAt as string
    expect(new Date(used).getUTCSeconds()).toBe(0)
    expect(new Date(used).getUTCMilliseconds()).toBe(0)
    const log = JSON.stringify(api.logs)
    expect(log).not.toContain(key.slice(14))
  })

  it("are refused once revoked, expired, malformed or rotated out, with one answer", async () => {
    const api = await startApi()
    const revoked = await createKey(api, [1])
    expect((await api.call("DELETE", `${keys}/${revoked.id}`, asMaster)).status).toBe(200)
    const expiring = await createKey(api, [1], asMaster, {
      expiresAt: new Date(Date.now() + 60_000).toISOString()
    })
    expect((await api.call("GET", "/api/v1/auth/me", { token: expiring.key })).status).toBe(200)
    await withClockAhead(61_000, async () => {
      expectProblem(await api.call("GET", "/api/v1/auth/me", { token: expiring.key }), 401, "unauthorized")
    })
    const rotated = await createKey(api, [1])
    const renewed = await api.call("POST", `${keys}/${rotated.id}/rotate`, { ...asMaster, body: {} })
    expect(renewed.status, renewed.text).toBe(200)
    expect(renewed.body.id).toBe(rotated.id)
    expect(renewed.body.key).not.toBe(rotated.key)
    expect((await api.call("GET", "/api/v1/auth/me", { token: renewed.body.key })).status).toBe(200)
    const wrongSecret = `${rotated.key.slice(0, 20)}${"A".repeat(43)}`
    for (const token of [revoked.key, rotated.key, "rk_nothing", wrongSecret, `${renewed.body.key}x`]) {
      expectProblem(await api.call("GET", "/api/v1/auth/me", { token }), 401, "unauthorized")
    }
    for (const expiresAt of ["2020-01-01T00:00:00Z", "March 7", "2099-13-01T00:00:00Z", 1893456000]) {
      expectProblem(
        await api.call("POST", keys, { ...asMaster, body: { name: "Late", permissions: [1], expiresAt } }),
        400,
        "validation_failed"
      )
    }
    expectProblem(await api.call("DELETE", `${keys}/${revoked.id}`, asMaster), 404, "not_found")
  })

  it("keep the old secret through a rotation's grace only, and refuse a grace over a week", async () => {
    const api = await startApi()
    const { id, key } = await createKey(api, [1])
    const renewed = await api.call("POST", `${keys}/${id}/rotate`, {
      ...asMaster,
      body: { graceSeconds: 60 }
    })
    expect(renewed.status, renewed.text).toBe(200)
    expect((await api.call("GET", "/api/v1/auth/me", { token: key })).status).toBe(200)
    expect((await api.call("GET", "/api/v1/auth/me", { token: renewed.body.key })).status).toBe(200)
    await withClockAhead(61_000, async () => {
      expectProblem(await api.call("GET", "/api/v1/auth/me", { token: key }), 401, "unauthorized")
      expect((await api.call("GET", "/api/v1/auth/me", { token: renewed.body.key })).status).toBe(200)
    })
    for (const graceSeconds of [604801, -1, 1.5, "60"]) {
      expectProblem(
        await api.call("POST", `${keys}/${id}/rotate`, { ...asMaster, body: { graceSeconds } }),
        400,
        "validation_failed"
      )
    }
  })

  it("hold nothing their maker lacks, and nobody changes, rotates or revokes a key above their own", async () => {
    const api = await startApi()
    const keeper = await memberWithPermissions(api, "keeper", [1, 10])
    const reader = await memberWithPermissions(api, "reader", [1, 2])
    for (const credentials of [{ token: reader.token }]) {
      expectProblem(await api.call("GET", keys, credentials), 403, "forbidden")
      expectProblem(
        await api.call("POST", keys, { ...credentials, body: { name: "x", permissions: [1] } }),
        403,
        "forbidden"
      )
    }
    const own = await createKey(api, ["team.read"], { token: keeper.token })
    expect(own.body.createdBy).toEqual({ kind: "member", id: keeper.member.id })
    for (const permissions of [[2], ["organization.write"], [1, 9]]) {
      expectProblem(
        await api.call("POST", keys, { token: keeper.token, body: { name: "x", permissions } }),
        403,
        "forbidden"
      )
    }
    expectProblem(
      await api.call("POST", keys, { token: keeper.token, body: { name: "x", permissions: [99] } }),
      422,
      "unknown_permission"
    )
    expectProblem(
      await api.call("POST", keys, { token: keeper.token, body: { name: "x", permissions: ["no.such"] } }),
      422,
      "unknown_permission"
    )
    const above = await createKey(api, [1, 2])
    const before = (await api.call("GET", `${keys}/${above.id}`, asMaster)).body
    const attempts = [
      ["PATCH", `${keys}/${above.id}`, { name: "Mine now" }],
      ["POST", `${keys}/${above.id}/rotate`, {}],
      ["DELETE", `${keys}/${above.id}`, undefined],
      ["PATCH", `${keys}/${own.id}`, { permissions: [1, 2] }]
    ] as const
    for (const [method, path, body] of attempts) {
      expectProblem(await api.call(method, path, { token: keeper.token, body }), 403, "forbidden")
    }
    expect((await api.call("GET", `${keys}/${above.id}`, asMaster)).body).toEqual(before)
    expect((await api.call("GET", "/api/v1/auth/me", { token: above.key })).status).toBe(200)
    const renamed = await api.call("PATCH", `${keys}/${own.id}`, {
      token: keeper.token,
      body: { name: "Nightly" }
    })
    expect(renamed.status, renamed.text).toBe(200)
    expect(renamed.body).toMatchObject({ name: "Nightly", permissions: [1] })
  })

  it("never manage themselves, act in their own organisation only, and are no person", async () => {
    const api = await startApi()
    await acme(api)
    const manager = await createKey(api, [1, 10])
    const made = await createKey(api, [1], { token: manager.key })
    expect(made.body.createdBy).toEqual({ kind: "api_key", id: manager.id })
    for (const [method, path, body] of [
      ["PATCH", `${keys}/${manager.id}`, { name: "Me" }],
      ["POST", `${keys}/${manager.id}/rotate`, {}],
      ["DELETE", `${keys}/${manager.id}`, undefined]
    ] as const) {
      expectProblem(await api.call(method, path, { token: manager.key, body }), 403, "forbidden")
    }
    const inOther = await createKey(api, [1, 10], inAcme)
    expectProblem(await api.call("GET", `${keys}/${inOther.id}`, { token: manager.key }), 404, "not_found")
    expectProblem(await api.call("DELETE", `${keys}/${inOther.id}`, { token: manager.key }), 404, "not_found")
    expect((await api.call("GET", `${keys}/${inOther.id}`, inAcme)).status).toBe(200)
    expectProblem(
      await api.call("GET", "/api/v1/team/members", {
        token: manager.key,
        headers: { "roster-organization": "acme" }
      }),
      403,
      "forbidden"
    )
    expectProblem(
      await api.call("POST", "/api/v1/auth/password", {
        token: manager.key,
        body: { currentPassword: password, newPassword: "a new password 123" }
      }),
      403,
      "forbidden"
    )
    expectProblem(await api.call("POST", "/api/v1/auth/logout", { token: manager.key }), 403, "forbidden")
    const scim = await api.call("GET", "/scim/v2/Users", { token: manager.key })
    expect(scim.status).toBe(401)
    expect((await api.call("DELETE", `${keys}/${made.id}`, { token: manager.key })).status).toBe(200)
  })

  it("never touch the owners' role above them, and die with their organisation", async () => {
    const api = await startApi()
    const { ownerRoleId } = await acme(api)
    const admin = await createKey(api, [1, 3, 4], inAcme)
    const asKey = { token: admin.key }
    const record = (await api.call("GET", `/api/v1/team/roles/${ownerRoleId}`, asKey)).body
    expect(record.permissionIds).toContain(10)
    for (const [method, path, body] of [
      ["PATCH", `/api/v1/team/roles/${ownerRoleId}`, { name: "Mine" }],
      ["DELETE", `/api/v1/team/roles/${ownerRoleId}`, undefined],
      ["POST", "/api/v1/team/role-permission-detail", { roleId: ownerRoleId, permissionId: 1 }],
      ["DELETE", `/api/v1/team/role-permission-detail/${record.recordId}`, { permissionId: 1 }]
    ] as const) {
      const answer = await api.call(method, path, { ...asKey, body })
      expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(403)
    }
    expect((await api.call("GET", `/api/v1/team/roles/${ownerRoleId}`, asKey)).body).toEqual(record)
    const deleted = await api.call("DELETE", "/api/v1/organization", inAcme)
    expect(deleted.status, deleted.text).toBe(200)
    expectProblem(await api.call("GET", "/api/v1/auth/me", asKey), 401, "unauthorized")
  })

  it("are audited with the key as actor, and a replayed creation carries no key", async () => {
    const api = await startApi()
    const manager = await createKey(api, [1, 8, 10])
    const made = await createKey(api, [1], { token: manager.key })
    await api.call("PATCH", `${keys}/${made.id}`, { token: manager.key, body: { name: "Renamed" } })
    await api.call("POST", `${keys}/${made.id}/rotate`, { token: manager.key, body: { graceSeconds: 60 } })
    await api.call("DELETE", `${keys}/${made.id}`, { token: manager.key })
    const audit = await api.call("GET", `/api/v1/audit/events?targetId=${made.id}`, { token: manager.key })
    expect(audit.status, audit.text).toBe(200)
    expect(audit.body.map((entry: { action: string }) => entry.action).sort()).toEqual([
      "api_key.created",
      "api_key.revoked",
      "api_key.rotated",
      "api_key.updated"
    ])
    for (const entry of audit.body) expect(entry.actor).toEqual({ kind: "api_key", id: manager.id })
    expect(audit.text).not.toContain(made.key.slice(14))
    const headers = { "idempotency-key": "create-once" }
    const first = await api.call("POST", keys, {
      ...asMaster,
      headers,
      body: { name: "Once", permissions: [1] }
    })
    const again = await api.call("POST", keys, {
      ...asMaster,
      headers,
      body: { name: "Once", permissions: [1] }
    })
    expect(first.body.key).toMatch(/^rk_/)
    expect(again.status).toBe(200)
    expect(again.body).toEqual({ ...first.body, key: null })
    expect(
      (await api.call("GET", keys, asMaster)).body.filter((k: { name: string }) => k.name === "Once")
    ).toHaveLength(1)
  })
})
