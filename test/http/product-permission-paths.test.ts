import { describe, expect, it } from "vitest"
import { expectProblem, password, startApi } from "../support/http.ts"
import {
  acme,
  administers,
  asMaster,
  declare,
  grant,
  inAcme,
  permissionsOfRole,
  read,
  retire,
  roleHolding,
  rosterStatuses,
  signedInMember,
  standing
} from "../support/product-permissions.ts"

describe("a product permission granted by a role's record", () => {
  it("is held once granted and not once endpoint 5 removes it; alone, it opens no Roster endpoint", async () => {
    const api = await startApi()
    const projects = await declare(api, "projects.delete")
    const builders = await roleHolding(api, "builders", [projects])
    const pat = await signedInMember(api, "pat", builders.id)
    expect(await permissionsOfRole(api, builders.id)).toEqual([projects])
    expect(await standing(api, pat.token, "projects.delete")).toEqual({ reason: "granted", listed: true })
    expect(await rosterStatuses(api, pat.token)).toEqual([403, 403, 403, 403, 403, 403])
    const removed = await api.call("DELETE", `/api/v1/team/role-permission-detail/${builders.recordId}`, {
      ...asMaster,
      body: { permissionId: projects }
    })
    expect(removed.status, removed.text).toBe(200)
    expect(await permissionsOfRole(api, builders.id)).toEqual([])
    expect(await standing(api, pat.token, "projects.delete")).toEqual({
      reason: "not_granted",
      listed: false
    })
  })

  it("is granted, removed, invited into and moved into only by one who holds it: 403, nothing changed", async () => {
    const api = await startApi()
    const projects = await declare(api, "projects.delete")
    const lou = await signedInMember(api, "lou", (await roleHolding(api, "lacking", administers)).id)
    const hal = await signedInMember(
      api,
      "hal",
      (await roleHolding(api, "holding", [...administers, projects])).id
    )
    const staff = await roleHolding(api, "staff", [read])
    const asLou = { token: lou.token }
    const asHal = { token: hal.token }
    expectProblem(await grant(api, staff.id, projects, asLou), 403, "forbidden")
    expect(await permissionsOfRole(api, staff.id)).toEqual([read])
    expect((await grant(api, staff.id, projects, asHal)).status).toBe(200)
    expect(await permissionsOfRole(api, staff.id)).toEqual([read, projects])
    const endpoint5 = { ...asLou, body: { permissionId: projects } }
    expectProblem(
      await api.call("DELETE", `/api/v1/team/role-permission-detail/${staff.recordId}`, endpoint5),
      403,
      "forbidden"
    )
    expect(await permissionsOfRole(api, staff.id)).toEqual([read, projects])
    const invite = (credentials: { token: string }, roleId: number) =>
      api.call("POST", "/api/v1/team/invitations", {
        ...credentials,
        body: { email: "ivy@example.com", roleId }
      })
    expectProblem(await invite(asLou, staff.id), 403, "forbidden")
    expect((await api.call("GET", "/api/v1/team/invitations", asMaster)).body).toEqual([])
    const mo = await signedInMember(api, "moe", (await roleHolding(api, "readers", [read])).id)
    const move = (credentials: { token: string }, roleId = staff.id) =>
      api.call("PATCH", `/api/v1/team/members/${mo.id}`, { ...credentials, body: { roleId } })
    expectProblem(await move(asLou), 403, "forbidden")
    expect(await standing(api, mo.token, "projects.delete")).toEqual({ reason: "not_granted", listed: false })
    const key = (credentials: { token: string }) =>
      api.call("POST", "/api/v1/organization/api-keys", {
        ...credentials,
        body: { name: "ci", permissions: [projects] }
      })
    expectProblem(await key(asLou), 403, "forbidden")
    expect((await api.call("GET", "/api/v1/organization/api-keys", asMaster)).body).toEqual([])
    // Another organisation's role is not there to grant to, invite into or move into.
    await acme(api)
    const acmeRole = await roleHolding(api, "acme-staff", [read], inAcme)
    expectProblem(await grant(api, acmeRole.id, projects, asHal), 422, "unknown_role")
    expectProblem(await invite(asHal, acmeRole.id), 422, "unknown_role")
    expectProblem(await move(asHal, acmeRole.id), 422, "unknown_role")
    expect(await permissionsOfRole(api, acmeRole.id, inAcme)).toEqual([read])
    // One who holds it may.
    expect((await invite(asHal, staff.id)).status).toBe(200)
    expect((await move(asHal)).status).toBe(200)
    // The move ended moe's sessions: signed in again, moe holds it.
    const again = await api.call("POST", "/api/v1/auth/login", { body: { username: "moe", password } })
    expect(await standing(api, again.body.token, "projects.delete")).toEqual({
      reason: "granted",
      listed: true
    })
    expect((await key(asHal)).body.permissions).toEqual([projects])
  })
})

describe("a product permission carried by an API key and an invitation", () => {
  it("an API key holding it is answered granted, opens no Roster endpoint, and is counted when retiring", async () => {
    const api = await startApi()
    const projects = await declare(api, "projects.delete")
    const made = await api.call("POST", "/api/v1/organization/api-keys", {
      ...asMaster,
      body: { name: "ci", permissions: ["projects.delete"] }
    })
    expect(made.body.permissions).toEqual([projects])
    expect(await standing(api, made.body.key, "projects.delete")).toEqual({ reason: "granted", listed: true })
    expect(await rosterStatuses(api, made.body.key)).toEqual([403, 403, 403, 403, 403, 403])
    const inUse = expectProblem(await retire(api, "projects.delete"), 409, "permission_in_use")
    expect(inUse.holders).toEqual({ roles: 0, apiKeys: 1, scimTokens: 0 })
  })

  it("accepting an invitation gives the role holding it", async () => {
    const api = await startApi()
    const projects = await declare(api, "projects.delete")
    const builders = await roleHolding(api, "builders", [read, projects])
    const invited = await api.call("POST", "/api/v1/team/invitations", {
      ...asMaster,
      body: { email: "ivy@example.com", roleId: builders.id }
    })
    expect(invited.status, invited.text).toBe(200)
    const accepted = await api.call("POST", "/api/v1/invitations/accept", {
      body: { token: invited.body.token, username: "ivy", password }
    })
    expect(accepted.body.member.roleId).toBe(builders.id)
    expect(await standing(api, accepted.body.token, "projects.delete")).toEqual({
      reason: "granted",
      listed: true
    })
  })
})
