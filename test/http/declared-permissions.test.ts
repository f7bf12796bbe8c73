import { Context } from "effect"
import { HttpApi } from "effect/http-api"
import { describe, expect, it } from "vitest"
import { RequiresPermission } from "../../adapters/http/api/middleware.ts"
import { RosterApi } from "../../adapters/http/api/roster-api.ts"
import { PermissionCatalog } from "../../core/index.ts"
import { memberWithPermissions, startApi } from "../support/http.ts"

interface Declared {
  readonly method: "GET" | "DELETE"
  readonly operation: string
  readonly path: string
  readonly permission: string
}

/** Every read and removal the API declares a permission for, with its path's ids filled in. */
const declared: Array<Declared> = []
HttpApi.reflect(RosterApi, {
  onGroup: () => {},
  onEndpoint: ({ group, endpoint, mergedAnnotations }) => {
    const permission = Context.get(mergedAnnotations, RequiresPermission)
    const method = endpoint.method
    if ((method !== "GET" && method !== "DELETE") || permission === undefined) return
    declared.push({
      method,
      operation: `${group.identifier}.${endpoint.identifier}`,
      path: endpoint.path.replace(/:[A-Za-z]+/gu, "1"),
      permission
    })
  }
})

/** A valid body for the removals that take one. */
const bodies: Record<string, unknown> = { "team.removePermission": { permissionId: 1 } }

const idOf = (key: string) => PermissionCatalog.find((permission) => permission.key === key)?.id ?? 0

describe("the permission each endpoint declares (what the console offers by)", () => {
  it("is the one its use case asks for: without it, 403; with it alone, a read is never 403", async () => {
    expect(declared.filter((entry) => entry.method === "GET").length).toBeGreaterThanOrEqual(18)
    expect(declared.filter((entry) => entry.method === "DELETE").length).toBeGreaterThanOrEqual(9)
    const api = await startApi()
    const everyId = PermissionCatalog.map((permission) => permission.id)
    // One member lacking each permission and one holding it alone, shared by the operations that
    // declare it: every call they make is refused or a read, so none changes what another reads.
    const members = new Map<string, Promise<{ readonly token: string }>>()
    const memberFor = (name: string, permissionIds: ReadonlyArray<number>) => {
      const made = members.get(name) ?? memberWithPermissions(api, name, permissionIds)
      members.set(name, made)
      return made
    }
    for (const read of declared) {
      const without = await memberFor(
        `without-${read.permission.replaceAll(".", "-")}`,
        everyId.filter((id) => id !== idOf(read.permission))
      )
      const body = bodies[read.operation]
      const refused = await api.call(read.method, read.path, {
        token: without.token,
        ...(body === undefined ? {} : { body })
      })
      expect(refused.status, `${read.operation} without ${read.permission}: ${refused.text}`).toBe(403)
      // A removal may still be refused with it alone: the role at stake may be above the caller's.
      if (read.method === "DELETE") continue
      const only = await memberFor(`only-${read.permission.replaceAll(".", "-")}`, [idOf(read.permission)])
      const allowed = await api.call("GET", read.path, { token: only.token })
      expect([200, 404], `${read.operation} with ${read.permission}: ${allowed.text}`).toContain(
        allowed.status
      )
    }
  })
})

describe("an operation the OpenAPI document says needs no permission (x-roster-permission: null)", () => {
  it("is never refused for a missing permission, to a member holding none (each with its documented example)", async () => {
    const api = await startApi()
    const document = (await api.call("GET", "/api/v1/openapi.json")).body
    const none: Array<{ method: string; url: string; operationId: string; body: unknown }> = []
    for (const [path, item] of Object.entries<Record<string, Documented>>(document.paths))
      for (const [method, op] of Object.entries(item)) {
        if (op["x-roster-permission"] !== null) continue
        const url = path.replace(/\{(\w+)\}/gu, (_, name: string) =>
          encodeURIComponent(
            String(op.parameters?.find((parameter) => parameter.name === name)?.example ?? 1)
          )
        )
        none.push({
          method: method.toUpperCase(),
          url,
          operationId: op.operationId,
          body: op.requestBody?.content?.["*/*"]?.example
        })
      }
    expect(none.map((op) => op.operationId)).toEqual(expect.arrayContaining(["auth.me", "auth.logout"]))
    // Signing out ends the session every other call is made with: last.
    none.sort((a, b) => Number(a.operationId === "auth.logout") - Number(b.operationId === "auth.logout"))
    const { token } = await memberWithPermissions(api, "holds-nothing", [])
    for (const op of none) {
      const answer = await api.call(op.method, op.url, {
        token,
        ...(op.body === undefined ? {} : { body: op.body })
      })
      expect(answer.body?.permission, `${op.operationId}: ${answer.text}`).toBeUndefined()
      expect(answer.body?.detail ?? "", op.operationId).not.toMatch(/lacks the permission/u)
    }
  })
})

interface Documented {
  readonly operationId: string
  readonly "x-roster-permission"?: string | null
  readonly parameters?: ReadonlyArray<{
    readonly name: string
    readonly in: string
    readonly example?: unknown
  }>
  readonly requestBody?: { readonly content?: Record<string, { readonly example?: unknown }> }
}
