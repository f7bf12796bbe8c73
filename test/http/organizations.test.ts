import { describe, expect, it } from "vitest"
import {
  expectProblem,
  masterKey,
  memberWithPermissions,
  password,
  startApi,
  type TestApi
} from "../support/http.ts"

const createOrganization = (api: TestApi, slug: string, token: string | undefined = masterKey) =>
  api.call("POST", "/api/v1/organizations", {
    ...(token === undefined ? {} : { token }),
    body: { name: `The ${slug} company`, slug }
  })

/** The master key acting on the organisation `slug` names. */
const inOrganization = (slug: string) => ({ token: masterKey, headers: { "roster-organization": slug } })

describe("organisations", () => {
  it("the master key creates one with its Owner role holding every permission; a slug is taken once", async () => {
    const api = await startApi()
    const created = await createOrganization(api, "acme")
    expect(created.status).toBe(200)
    expect(created.body).toMatchObject({ name: "The acme company", slug: "acme" })
    expect(Object.keys(created.body).sort()).toEqual(["createdAt", "id", "name", "ownerRoleId", "slug"])
    expectProblem(await createOrganization(api, "acme"), 409, "duplicate_slug")
    expectProblem(
      await api.call("POST", "/api/v1/organizations", {
        token: masterKey,
        body: { name: "X", slug: "No Caps" }
      }),
      400,
      "validation_failed"
    )
    const roles = await api.call("GET", "/api/v1/team/roles", inOrganization("acme"))
    expect(roles.body).toHaveLength(1)
    expect(roles.body[0]).toMatchObject({
      id: created.body.ownerRoleId,
      name: "Owner",
      roleKey: "owner",
      activeStatus: true
    })
    const catalog = (await api.call("GET", "/api/v1/team/permissions", { token: masterKey })).body
    const members = await api.call("GET", "/api/v1/team/roles", { token: masterKey })
    expect(members.body).toEqual([])
    const me = await api.call("GET", "/api/v1/auth/me", inOrganization(created.body.id))
    expect(me.body.organization).toEqual({ id: created.body.id, slug: "acme", name: "The acme company" })
    expect(catalog.length).toBeGreaterThan(0)
  })

  it("are listed to the master key, oldest first, paged and filtered; a member may neither list nor create", async () => {
    const api = await startApi()
    for (const slug of ["acme", "beta", "acme-two"])
      expect((await createOrganization(api, slug)).status).toBe(200)
    const all = await api.call("GET", "/api/v1/organizations", { token: masterKey })
    expect(all.body.map((organization: { slug: string }) => organization.slug)).toEqual([
      "default",
      "acme",
      "beta",
      "acme-two"
    ])
    const first = await api.call("GET", "/api/v1/organizations?limit=2&q=ac", { token: masterKey })
    expect(first.body.map((organization: { slug: string }) => organization.slug)).toEqual([
      "acme",
      "acme-two"
    ])
    const page = await api.call("GET", "/api/v1/organizations?limit=1", { token: masterKey })
    const next = /<([^>]+)>; rel="next"/.exec(page.headers.get("link") ?? "")?.[1] ?? ""
    const second = await api.call("GET", next, { token: masterKey })
    expect(second.status, `${next} ${second.text}`).toBe(200)
    expect(second.body[0].slug).toBe("acme")
    const { token } = await memberWithPermissions(api, "ada", [1, 2, 3, 4, 5, 6, 7, 8])
    expectProblem(await createOrganization(api, "gamma", token), 403, "forbidden")
    expectProblem(await api.call("GET", "/api/v1/organizations", { token }), 403, "forbidden")
    const listed = await api.call("GET", "/api/v1/organizations", { token: masterKey })
    expect(listed.body).toHaveLength(4)
  })

  it("a name that matches no organisation is 404 for the master key, an empty one 400, and nothing is written", async () => {
    const api = await startApi()
    expectProblem(await api.call("GET", "/api/v1/team/roles", inOrganization("nowhere")), 404, "not_found")
    expectProblem(
      await api.call("POST", "/api/v1/team/role/add", {
        ...inOrganization("nowhere"),
        body: { name: "Lost", roleKey: "lost" }
      }),
      404,
      "not_found"
    )
    const empty = await api.call("POST", "/api/v1/team/role/add", {
      token: masterKey,
      headers: { "roster-organization": " " },
      body: { name: "Lost", roleKey: "lost" }
    })
    expectProblem(empty, 400, "validation_failed")
    const roles = await api.call("GET", "/api/v1/team/roles", { token: masterKey })
    expect(roles.body).toEqual([])
  })

  it("a session acts on its own organisation: naming it is accepted, naming any other is 403", async () => {
    const api = await startApi()
    const acme = (await createOrganization(api, "acme")).body
    const owner = (await api.call("GET", "/api/v1/team/roles", inOrganization("acme"))).body[0]
    const added = await api.call("POST", "/api/v1/team/add", {
      ...inOrganization("acme"),
      body: { username: "wile", email: "wile@acme.example", password, activestatus: true, roleId: owner.id }
    })
    expect(added.status).toBe(200)
    const login = await api.call("POST", "/api/v1/auth/login", { body: { username: "wile", password } })
    expect(login.body.organization).toEqual({ id: acme.id, slug: "acme", name: acme.name })
    const token = login.body.token as string
    const me = await api.call("GET", "/api/v1/auth/me", { token })
    expect(me.body.organization.slug).toBe("acme")
    for (const own of ["acme", acme.id]) {
      const answer = await api.call("GET", "/api/v1/auth/me", {
        token,
        headers: { "roster-organization": own }
      })
      expect(answer.status).toBe(200)
    }
    for (const other of ["default", "nowhere"]) {
      expectProblem(
        await api.call("GET", "/api/v1/team/roles", { token, headers: { "roster-organization": other } }),
        403,
        "forbidden"
      )
    }
    const memberships = await api.call("GET", "/api/v1/auth/organizations", { token })
    expect(memberships.body).toEqual([
      { organization: { id: acme.id, slug: "acme", name: acme.name }, roleId: owner.id, activestatus: true }
    ])
    expect((await api.call("GET", "/api/v1/organization", { token })).body).toEqual(acme)
    expect((await api.call("GET", "/api/v1/auth/organizations", { token: masterKey })).body).toEqual([])
  })
})

describe("PATCH /api/v1/organization", () => {
  it("renames the caller's organisation and sets its default role, with organization.write; audited", async () => {
    const api = await startApi()
    const acme = (await createOrganization(api, "acme")).body
    const staff = await api.call("POST", "/api/v1/team/role/add", {
      ...inOrganization("acme"),
      body: { name: "Staff", roleKey: "staff" }
    })
    const changed = await api.call("PATCH", "/api/v1/organization", {
      ...inOrganization("acme"),
      body: { name: "Acme Corporation", defaultRoleId: staff.body.id }
    })
    expect(changed.status, changed.text).toBe(200)
    expect(changed.body).toEqual({ ...acme, name: "Acme Corporation", defaultRoleId: staff.body.id })
    const ours = await api.call("POST", "/api/v1/team/role/add", {
      token: masterKey,
      body: { name: "X", roleKey: "x" }
    })
    expectProblem(
      await api.call("PATCH", "/api/v1/organization", {
        ...inOrganization("acme"),
        body: { defaultRoleId: ours.body.id }
      }),
      422,
      "unknown_role"
    )
    expectProblem(
      await api.call("PATCH", "/api/v1/organization", { ...inOrganization("acme"), body: { slug: "other" } }),
      400,
      "validation_failed"
    )
    const events = await api.call(
      "GET",
      "/api/v1/audit/events?action=organization.updated",
      inOrganization("acme")
    )
    expect(events.body).toHaveLength(1)
    expect(events.body[0].changes).toEqual({
      name: ["The acme company", "Acme Corporation"],
      defaultRoleId: [null, staff.body.id]
    })
    const { token } = await memberWithPermissions(api, "ada", [1, 2, 3, 4, 5, 6, 7, 8])
    const refused = await api.call("PATCH", "/api/v1/organization", { token, body: { name: "Mine" } })
    expectProblem(refused, 403, "forbidden")
    expect(refused.body.permission).toBe("organization.write")
    expect((await api.call("GET", "/api/v1/organization", { token })).body.name).toBe("Default")
  })

  it("names no default role above the caller's own: identity providers would fill it", async () => {
    const api = await startApi()
    const { token, role } = await memberWithPermissions(api, "ada", [1, 9])
    const above = (await memberWithPermissions(api, "bob", [1, 2])).role.id
    const refused = await api.call("PATCH", "/api/v1/organization", { token, body: { defaultRoleId: above } })
    expectProblem(refused, 403, "forbidden")
    expect(refused.body.detail).toBe("The role holds permissions the caller does not hold")
    expect((await api.call("GET", "/api/v1/organization", { token })).body.defaultRoleId).toBeUndefined()
    const allowed = await api.call("PATCH", "/api/v1/organization", {
      token,
      body: { defaultRoleId: role.id }
    })
    expect(allowed.status, allowed.text).toBe(200)
  })

  it("an organisation's Owner role holds every permission of the catalog", async () => {
    const api = await startApi()
    await createOrganization(api, "acme")
    const [owner] = (await api.call("GET", "/api/v1/team/roles", inOrganization("acme"))).body
    const catalog = (await api.call("GET", "/api/v1/team/permissions", { token: masterKey })).body
    const ownerRecord = await api.call("POST", "/api/v1/team/role-permission-detail", {
      ...inOrganization("acme"),
      body: { roleId: owner.id, permissionId: 1 }
    })
    expect(ownerRecord.body.permissionIds).toEqual(catalog.map((permission: { id: number }) => permission.id))
  })
})

describe("POST /api/v1/auth/signup", () => {
  const signup = (api: TestApi, username: string, slug: string, client = "198.51.100.20") =>
    api.call("POST", "/api/v1/auth/signup", {
      client,
      body: {
        username,
        email: `${username}@example.com`,
        password,
        organization: { name: `${slug} Inc`, slug }
      }
    })

  it("is 404 unless the deployment opens it, and writes nothing", async () => {
    const api = await startApi()
    expectProblem(await signup(api, "ada", "ada-co"), 404, "not_found")
    expect((await api.call("GET", "/api/v1/organizations", { token: masterKey })).body).toHaveLength(1)
  })

  it("opens an organisation whose owner is the new account, signed in, apart from every other", async () => {
    const api = await startApi({ signupOpen: true })
    const answer = await signup(api, "ada", "ada-co")
    expect(answer.status, answer.text).toBe(200)
    expect(Object.keys(answer.body).sort()).toEqual(["expiresAt", "member", "organization", "token"])
    expect(answer.body.organization).toMatchObject({ slug: "ada-co", name: "ada-co Inc" })
    const token = answer.body.token as string
    const me = await api.call("GET", "/api/v1/auth/me", { token })
    const catalog = (await api.call("GET", "/api/v1/team/permissions", { token })).body
    expect(me.body.permissions).toEqual(catalog.map((permission: { key: string }) => permission.key))
    const roles = (await api.call("GET", "/api/v1/team/roles", { token })).body
    expect(roles.map((role: { roleKey: string }) => role.roleKey)).toEqual(["owner"])
    expect(
      (await api.call("GET", "/api/v1/team/members", { token })).body.map((m: { id: string }) => m.id)
    ).toEqual([answer.body.member.id])
    // The default organisation's team does not see the new account, nor the new owner theirs.
    expect((await api.call("GET", "/api/v1/team/members", { token: masterKey })).body).toEqual([])
    const events = await api.call("GET", "/api/v1/audit/events", { token })
    expect(events.body.map((event: { action: string }) => event.action).sort()).toEqual([
      "member.added",
      "organization.created"
    ])
    expect(
      events.body.every((event: { actor: { id?: string } }) => event.actor.id === answer.body.member.id)
    ).toBe(true)
  })

  it("refuses a taken username, e-mail or slug before writing anything", async () => {
    const api = await startApi({ signupOpen: true })
    expect((await signup(api, "ada", "ada-co")).status).toBe(200)
    expectProblem(await signup(api, "ada", "other-co"), 409, "duplicate_email")
    const sameName = await api.call("POST", "/api/v1/auth/signup", {
      body: { username: "ADA", email: "new@example.com", password, organization: { name: "X", slug: "x-co" } }
    })
    expectProblem(sameName, 409, "duplicate_username")
    expectProblem(await signup(api, "bob", "ada-co"), 409, "duplicate_slug")
    expect((await api.call("GET", "/api/v1/organizations", { token: masterKey })).body).toHaveLength(2)
  })

  it("is throttled per client address, not for others", async () => {
    const api = await startApi({ signupOpen: true })
    for (let i = 0; i < 5; i++) expect((await signup(api, `user${i}`, `org-${i}`)).status).toBe(200)
    const refused = await signup(api, "user5", "org-5")
    expectProblem(refused, 429, "rate_limited")
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
    expect((await signup(api, "user5", "org-5", "203.0.113.77")).status).toBe(200)
  })
})

describe("DELETE /api/v1/organization", () => {
  it("deletes the caller's organisation with its members, roles and records; its sessions end", async () => {
    const api = await startApi()
    await createOrganization(api, "acme")
    const [owner] = (await api.call("GET", "/api/v1/team/roles", inOrganization("acme"))).body
    await api.call("POST", "/api/v1/team/add", {
      ...inOrganization("acme"),
      body: { username: "wile", email: "wile@acme.example", password, activestatus: true, roleId: owner.id }
    })
    const token = (await api.call("POST", "/api/v1/auth/login", { body: { username: "wile", password } }))
      .body.token as string
    const deleted = await api.call("DELETE", "/api/v1/organization", { token })
    expect(deleted.status, deleted.text).toBe(200)
    expect(deleted.body.slug).toBe("acme")
    expectProblem(await api.call("GET", "/api/v1/auth/me", { token }), 401, "unauthorized")
    expectProblem(await api.call("GET", "/api/v1/organization", inOrganization("acme")), 404, "not_found")
    expectProblem(
      await api.call("POST", "/api/v1/auth/login", { body: { username: "wile", password } }),
      401,
      "unauthorized"
    )
    const slugs = (await api.call("GET", "/api/v1/organizations", { token: masterKey })).body.map(
      (organization: { slug: string }) => organization.slug
    )
    expect(slugs).toEqual(["default"])
    // The names and the slug are free again.
    expect((await createOrganization(api, "acme")).status).toBe(200)
    const again = await api.call("POST", "/api/v1/team/add", {
      ...inOrganization("acme"),
      body: { username: "wile", email: "wile@acme.example", password, activestatus: true, roleId: owner.id }
    })
    expectProblem(again, 422, "unknown_role")
  })

  it("refuses the default organisation, an open subscription, and a member without organization.write", async () => {
    const api = await startApi()
    expectProblem(await api.call("DELETE", "/api/v1/organization", { token: masterKey }), 403, "forbidden")
    await createOrganization(api, "acme")
    const subscribed = await api.call("POST", "/api/v1/pricing/subscribe", {
      ...inOrganization("acme"),
      body: { planId: "free", planName: "Free", price: 0 }
    })
    expect(subscribed.status).toBe(200)
    expectProblem(
      await api.call("DELETE", "/api/v1/organization", inOrganization("acme")),
      409,
      "subscription_active"
    )
    expect((await api.call("DELETE", "/api/v1/pricing/subscription", inOrganization("acme"))).status).toBe(
      200
    )
    const { token } = await memberWithPermissions(api, "ada", [1, 2, 3, 4, 5, 6, 7, 8])
    expectProblem(await api.call("DELETE", "/api/v1/organization", { token }), 403, "forbidden")
    expect((await api.call("DELETE", "/api/v1/organization", inOrganization("acme"))).status).toBe(200)
  })
})

describe("POST /api/v1/auth/login with an organisation", () => {
  it("signs in to the one named (id or slug) when the account is its member; any other is the generic 401", async () => {
    const api = await startApi()
    const acme = (await createOrganization(api, "acme")).body
    await createOrganization(api, "beta")
    const [owner] = (await api.call("GET", "/api/v1/team/roles", inOrganization("acme"))).body
    await api.call("POST", "/api/v1/team/add", {
      ...inOrganization("acme"),
      body: { username: "wile", email: "wile@acme.example", password, activestatus: true, roleId: owner.id }
    })
    for (const organization of ["acme", acme.id]) {
      const login = await api.call("POST", "/api/v1/auth/login", {
        body: { username: "wile", password, organization }
      })
      expect(login.status, login.text).toBe(200)
      expect(login.body.organization.id).toBe(acme.id)
    }
    const wrongPassword = await api.call("POST", "/api/v1/auth/login", {
      body: { username: "wile", password: "not the password" }
    })
    for (const organization of ["beta", "nowhere"]) {
      const refused = await api.call("POST", "/api/v1/auth/login", {
        body: { username: "wile", password, organization }
      })
      expectProblem(refused, 401, "unauthorized")
      expect(refused.body).toEqual(wrongPassword.body)
    }
  })
})
