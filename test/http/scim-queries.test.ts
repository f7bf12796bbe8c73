import { describe, expect, it } from "vitest"
import { masterKey, password, startApi } from "../support/http.ts"
import { createUser, expectScimError, type Scim, scimFor } from "../support/scim.ts"

const userNames = async (scim: Scim, query: string) => {
  const listed = await scim.call("GET", `/Users?${query}`)
  expect(listed.status, listed.text).toBe(200)
  return (listed.body.Resources as Array<{ userName: string }>).map((user) => user.userName)
}

const filtered = (scim: Scim, filter: string) => userNames(scim, `filter=${encodeURIComponent(filter)}`)

const withUsers = async () => {
  const api = await startApi()
  const scim = await scimFor(api)
  const ada = await createUser(scim, "ada@example.com", { externalId: "A-1", displayName: "Ada" })
  await createUser(scim, "bob@corp.example", { displayName: "Bob" })
  await createUser(scim, "cyd@example.com")
  await scim.call("PATCH", `/Users/${ada.id}`, {
    body: {
      schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
      Operations: [{ op: "replace", path: "active", value: false }]
    }
  })
  return { api, scim, ada }
}

describe("SCIM lists", () => {
  it("filter with every operator, and, or, not and parentheses; names and texts ignore case, ids do not", async () => {
    const { scim, ada } = await withUsers()
    expect(await filtered(scim, 'userName eq "ADA@example.com"')).toEqual(["ada@example.com"])
    expect(await filtered(scim, 'USERNAME Eq "bob@corp.example"')).toEqual(["bob@corp.example"])
    expect(await filtered(scim, 'userName ne "ada@example.com"')).toEqual([
      "bob@corp.example",
      "cyd@example.com"
    ])
    expect(await filtered(scim, 'emails.value co "CORP"')).toEqual(["bob@corp.example"])
    expect(await filtered(scim, 'emails[value ew ".com"]')).toEqual(["ada@example.com", "cyd@example.com"])
    expect(await filtered(scim, 'userName sw "c"')).toEqual(["cyd@example.com"])
    expect(await filtered(scim, "displayName pr")).toEqual(["ada@example.com", "bob@corp.example"])
    expect(await filtered(scim, "active eq false")).toEqual(["ada@example.com"])
    expect(await filtered(scim, 'externalId eq "A-1"')).toEqual(["ada@example.com"])
    expect(await filtered(scim, 'externalId eq "a-1"')).toEqual([])
    expect(await filtered(scim, `id eq "${ada.id}"`)).toEqual(["ada@example.com"])
    expect(await filtered(scim, 'not (userName sw "a") and (displayName pr or userName ew "com")')).toEqual([
      "bob@corp.example",
      "cyd@example.com"
    ])
    expect(await filtered(scim, 'userName eq "nobody" or active eq true and displayName eq "bob"')).toEqual([
      "bob@corp.example"
    ])
    expect(await filtered(scim, 'meta.lastModified gt "2000-01-01T00:00:00Z"')).toHaveLength(3)
    expect(await filtered(scim, 'meta.lastModified le "2000-01-01T00:00:00Z"')).toEqual([])
    expect(
      await filtered(
        scim,
        'meta.created ge "2000-01-01T00:00:00Z" and meta.created lt "2999-01-01T00:00:00Z"'
      )
    ).toHaveLength(3)
  })

  it("userName eq, as providers ask on every sync, finds provisioned members and members added through the API alike", async () => {
    const { api, scim, ada } = await withUsers()
    const staff = await api.call("POST", "/api/v1/team/role/add", {
      token: masterKey,
      body: { name: "Staff", roleKey: "staff" }
    })
    const added = await api.call("POST", "/api/v1/team/add", {
      token: masterKey,
      body: {
        username: "Dora",
        email: "dora@example.com",
        password,
        activestatus: true,
        roleId: staff.body.id
      }
    })
    expect(added.status, added.text).toBe(200)
    expect(await filtered(scim, 'userName eq "dora"')).toEqual(["Dora"])
    expect(await filtered(scim, 'userName eq "dora@example.com"')).toEqual([])
    expect(await filtered(scim, 'userName eq "ADA@EXAMPLE.COM"')).toEqual(["ada@example.com"])
    const member = await api.call("GET", `/api/v1/team/members/${ada.id}`, { token: masterKey })
    expect(await filtered(scim, `userName eq "${member.body.username}"`)).toEqual([])
    expect(await filtered(scim, 'userName eq "nobody@example.com"')).toEqual([])
  })

  it("refuses a filter that does not parse, or names no attribute: 400 invalidFilter", async () => {
    const { scim } = await withUsers()
    for (const bad of [
      'userName eq "x" and (',
      "userName zz 1",
      'nickName eq "x"',
      'meta.lastModified gt "not a date"'
    ]) {
      expectScimError(
        await scim.call("GET", `/Users?filter=${encodeURIComponent(bad)}`),
        400,
        "invalidFilter"
      )
    }
  })

  it("sorts, pages from a 1-based startIndex, and counts every match", async () => {
    const { scim } = await withUsers()
    expect(await userNames(scim, "sortBy=userName&sortOrder=descending")).toEqual([
      "cyd@example.com",
      "bob@corp.example",
      "ada@example.com"
    ])
    expect(await userNames(scim, "sortBy=displayName")).toEqual([
      "ada@example.com",
      "bob@corp.example",
      "cyd@example.com"
    ])
    const page = await scim.call("GET", "/Users?sortBy=userName&startIndex=2&count=1")
    expect(page.body).toMatchObject({ totalResults: 3, startIndex: 2, itemsPerPage: 1 })
    expect(page.body.Resources.map((user: { userName: string }) => user.userName)).toEqual([
      "bob@corp.example"
    ])
    const none = await scim.call("GET", "/Users?count=0")
    expect(none.body).toMatchObject({ totalResults: 3, itemsPerPage: 0, Resources: [] })
    expectScimError(await scim.call("GET", "/Users?count=many"), 400, "invalidValue")
    expectScimError(await scim.call("GET", "/Users?sortBy=nickName"), 400, "invalidPath")
  })

  it("answers only the attributes asked for, or all but the excluded ones; id and schemas always", async () => {
    const { scim, ada } = await withUsers()
    const only = await scim.call("GET", `/Users/${ada.id}?attributes=userName,name.givenName`)
    expect(Object.keys(only.body).sort()).toEqual(["id", "name", "schemas", "userName"])
    expect(only.body.name).toEqual({ givenName: "Given" })
    const without = await scim.call("GET", `/Users/${ada.id}?excludedAttributes=emails,groups,meta`)
    expect(without.body.emails).toBeUndefined()
    expect(without.body.groups).toBeUndefined()
    expect(without.body.userName).toBe("ada@example.com")
    const searched = await scim.call("POST", "/Users/.search", {
      body: {
        schemas: ["urn:ietf:params:scim:api:messages:2.0:SearchRequest"],
        filter: 'userName sw "b"',
        attributes: ["userName"]
      }
    })
    expect(searched.body.Resources).toEqual([
      { schemas: expect.any(Array), id: expect.any(String), userName: "bob@corp.example" }
    ])
  })
})
