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
    for (const [index, read] of declared.entries()) {
      const without = await memberWithPermissions(
        api,
        `without${index}`,
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
      const only = await memberWithPermissions(api, `only${index}`, [idOf(read.permission)])
      const allowed = await api.call("GET", read.path, { token: only.token })
      expect([200, 404], `${read.operation} with ${read.permission}: ${allowed.text}`).toContain(
        allowed.status
      )
    }
  })
})
