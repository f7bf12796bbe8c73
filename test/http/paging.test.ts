import { describe, expect, it } from "vitest"
import {
  type Answer,
  addRole,
  expectProblem,
  masterKey,
  password,
  startApi,
  type TestApi
} from "../support/http.ts"

const asMaster = { token: masterKey }

/** The target of `Link: <…>; rel="next"`, or undefined when there is none. */
const nextOf = (answer: Answer) => /^<([^>]+)>; rel="next"$/u.exec(answer.headers.get("link") ?? "")?.[1]

/** Every page from `path` on, following the Link header. */
const allPages = async (api: TestApi, path: string) => {
  const pages: Array<Answer> = []
  for (let next: string | undefined = path; next !== undefined; next = nextOf(pages.at(-1) as Answer)) {
    const page = await api.call("GET", next, asMaster)
    expect(page.status, page.text).toBe(200)
    pages.push(page)
  }
  return pages
}

const withMembers = async (usernames: ReadonlyArray<string>) => {
  const api = await startApi()
  const staff = await addRole(api, "staff", asMaster)
  const crew = await addRole(api, "crew", asMaster)
  const added = []
  for (const [i, username] of usernames.entries()) {
    const answer = await api.call("POST", "/api/v1/team/add", {
      ...asMaster,
      body: {
        username,
        email: `${username}@example.com`,
        password,
        activestatus: i % 3 !== 0,
        roleId: i % 2 === 0 ? staff.body.id : crew.body.id
      }
    })
    added.push(answer.body)
  }
  return { api, added, staff: staff.body.id as number, crew: crew.body.id as number }
}

describe("paged lists", () => {
  it("follows every list's Link to its last page: invitations, API keys, organisations", async () => {
    const api = await startApi()
    const staff = await addRole(api, "staff", asMaster)
    for (const name of ["a", "b", "c"]) {
      const invited = await api.call("POST", "/api/v1/team/invitations", {
        ...asMaster,
        body: { email: `${name}@example.com`, roleId: staff.body.id }
      })
      expect(invited.status, invited.text).toBe(200)
      const key = await api.call("POST", "/api/v1/organization/api-keys", {
        ...asMaster,
        body: { name, permissions: [1] }
      })
      expect(key.status, key.text).toBe(200)
      const organization = await api.call("POST", "/api/v1/organizations", {
        ...asMaster,
        body: { name, slug: `org-${name}` }
      })
      expect(organization.status, organization.text).toBe(200)
    }
    for (const [path, field, expected] of [
      ["/api/v1/team/invitations?limit=2", "email", ["a@example.com", "b@example.com", "c@example.com"]],
      ["/api/v1/organization/api-keys?limit=2", "name", ["a", "b", "c"]],
      ["/api/v1/organizations?limit=2&q=org-", "slug", ["org-a", "org-b", "org-c"]]
    ] as const) {
      const pages = await allPages(api, path)
      expect(pages.map((page) => page.body.length)).toEqual([2, 1])
      expect(pages.flatMap((page) => page.body.map((item: Record<string, string>) => item[field]))).toEqual(
        expected
      )
    }
  })

  it("pages members with limit and a Link to the next page until the last", async () => {
    const { api, added } = await withMembers(["ann", "ben", "cid", "dee", "eve"])
    const pages = await allPages(api, "/api/v1/team/members?limit=2")
    expect(pages.map((page) => page.body.length)).toEqual([2, 2, 1])
    expect(pages.flatMap((page) => page.body)).toEqual(added)
    expect(nextOf(pages[0] as Answer)).toMatch(/^\/api\/v1\/team\/members\?limit=2&cursor=[\w-]+$/u)
    expect(pages[2]?.headers.get("link")).toBeNull()
    expect((await api.call("GET", "/api/v1/team/members", asMaster)).body).toEqual(added)
  })

  it("keeps the filters in the next page's Link", async () => {
    const { api, added, crew } = await withMembers(["ann", "ben", "cid", "dee", "eve", "fay", "gus"])
    const crewMembers = added.filter((member) => member.roleId === crew)
    const pages = await allPages(api, `/api/v1/team/members?roleId=${crew}&limit=1`)
    expect(pages.flatMap((page) => page.body)).toEqual(crewMembers)
    expect(nextOf(pages[0] as Answer)).toContain(`roleId=${crew}`)
    const active = await api.call("GET", "/api/v1/team/members?active=true", asMaster)
    expect(active.body).toEqual(added.filter((member) => member.activestatus))
    const inactive = await api.call("GET", "/api/v1/team/members?active=false", asMaster)
    expect(inactive.body).toEqual(added.filter((member) => !member.activestatus))
    const byPrefix = await api.call("GET", "/api/v1/team/members?q=G", asMaster)
    expect(byPrefix.body.map((member: { username: string }) => member.username)).toEqual(["gus"])
  })

  it("pages roles, 50 unless asked", async () => {
    const api = await startApi()
    for (let i = 0; i < 52; i++) await addRole(api, `role-${i}`, asMaster)
    const first = await api.call("GET", "/api/v1/team/roles", asMaster)
    expect(first.body).toHaveLength(50)
    const pages = await allPages(api, "/api/v1/team/roles")
    expect(pages.map((page) => page.body.length)).toEqual([50, 2])
    const all = await api.call("GET", "/api/v1/team/roles?limit=200", asMaster)
    expect(all.body.map((role: { id: number }) => role.id)).toEqual(
      Array.from({ length: 52 }, (_, i) => i + 1)
    )
  })

  it.each([
    "limit=0",
    "limit=201",
    "limit=x",
    "limit=1.5",
    "limit=01",
    "cursor=!!",
    `cursor=${btoa("not json")}`,
    `cursor=${btoa(JSON.stringify({ createdAt: "yesterday", id: 1 }))}`,
    "roleId=x",
    "active=yes",
    "q="
  ])("refuses a bad %s with 400", async (query) => {
    const api = await startApi()
    const answer = await api.call("GET", `/api/v1/team/members?${query}`, asMaster)
    expectProblem(answer, 400, "validation_failed")
  })

  it("refuses a role cursor on members, and a member cursor on roles", async () => {
    const { api } = await withMembers(["ann", "ben"])
    const members = await api.call("GET", "/api/v1/team/members?limit=1", asMaster)
    const roles = await api.call("GET", "/api/v1/team/roles?limit=1", asMaster)
    const memberCursor = new URLSearchParams(nextOf(members)?.split("?")[1]).get("cursor")
    const roleCursor = new URLSearchParams(nextOf(roles)?.split("?")[1]).get("cursor")
    expectProblem(
      await api.call("GET", `/api/v1/team/roles?cursor=${memberCursor}`, asMaster),
      400,
      "validation_failed"
    )
    expectProblem(
      await api.call("GET", `/api/v1/team/members?cursor=${roleCursor}`, asMaster),
      400,
      "validation_failed"
    )
  })
})
