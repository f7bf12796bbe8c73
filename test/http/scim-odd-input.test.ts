import { describe, expect, it } from "vitest"
import { masterKey, startApi } from "../support/http.ts"
import { createUser, groupSchema, patchOf, scimFor } from "../support/scim.ts"

const oddBodies: ReadonlyArray<unknown> = [
  null,
  42,
  "text",
  [],
  [{}],
  {},
  { schemas: "urn:ietf:params:scim:schemas:core:2.0:User", userName: "x" },
  { schemas: [null], userName: "x" },
  { schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"], userName: 7 },
  { schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"], userName: "" },
  { schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"], userName: "a\u0000b@example.com" },
  { schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"], userName: "x".repeat(300) },
  { schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"], userName: "ok@example.com", emails: "x" },
  {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
    userName: "ok@example.com",
    emails: [{ value: "nope" }]
  },
  { schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"], userName: "ok@example.com", active: "maybe" },
  { schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"], userName: "ok@example.com", password: "short" },
  { schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"], userName: "ok@example.com", name: "Ada" },
  { schemas: [groupSchema], displayName: "" },
  { schemas: [groupSchema], displayName: "g", members: [{ value: 5 }] },
  { schemas: [groupSchema], displayName: "g", members: "all" }
]

const oddPatches: ReadonlyArray<unknown> = [
  {},
  { Operations: "x" },
  { Operations: [null] },
  { Operations: [{}] },
  patchOf({ op: "frobnicate", path: "active", value: true }),
  patchOf({ op: "replace", path: "[[[", value: 1 }),
  patchOf({ op: "replace", path: 'emails[value eq "x"', value: 1 }),
  patchOf({ op: "remove" }),
  patchOf({ op: "remove", path: "userName" }),
  patchOf({ op: "replace", path: "userName", value: { nested: true } }),
  patchOf({ op: "add", path: "members", value: "x" }),
  patchOf({ op: "replace", value: 12 }),
  patchOf({ op: "replace", path: "meta.created", value: "yesterday" }),
  patchOf({ op: "remove", path: 'members[value eq "x"].display' }),
  { schemas: ["urn:wrong"], Operations: [{ op: "replace", path: "active", value: false }] }
]

const oddQueries: ReadonlyArray<string> = [
  "filter=",
  "filter=%20",
  "filter=userName",
  "filter=userName%20eq",
  'filter=userName eq "x" and',
  "filter=((((((((((((((((((((",
  'filter=emails[type eq "work"',
  "filter=active gt true",
  'filter=meta.lastModified gt "x"',
  "filter=userName eq 12",
  "filter=userName eq null",
  "startIndex=-5&count=-3",
  "startIndex=1e3&count=1e9",
  "startIndex=abc",
  "sortBy=&sortOrder=sideways",
  "attributes=,,,&excludedAttributes=..",
  "attributes=urn:ietf:params:scim:schemas:core:2.0:User:userName"
]

describe("SCIM under odd input", () => {
  it("answers every malformed body, patch, query and path with a SCIM error or a success, never a 500", async () => {
    const api = await startApi()
    const scim = await scimFor(api)
    const user = await createUser(scim, "target@example.com")
    const group = (await scim.call("POST", "/Groups", { body: { schemas: [groupSchema], displayName: "G" } }))
      .body
    const answers = []
    for (const body of oddBodies) {
      answers.push(await scim.call("POST", "/Users", { body }))
      answers.push(await scim.call("POST", "/Groups", { body }))
      answers.push(await scim.call("PUT", `/Users/${user.id}`, { body }))
      answers.push(await scim.call("PUT", `/Groups/${group.id}`, { body }))
      answers.push(await scim.call("POST", "/.search", { body }))
    }
    for (const body of oddPatches) {
      answers.push(await scim.call("PATCH", `/Users/${user.id}`, { body }))
      answers.push(await scim.call("PATCH", `/Groups/${group.id}`, { body }))
    }
    for (const query of oddQueries) {
      answers.push(await scim.call("GET", `/Users?${query.replaceAll(" ", "%20")}`))
      answers.push(await scim.call("GET", `/Groups?${query.replaceAll(" ", "%20")}`))
    }
    for (const path of [
      "/Users/%E0%A4%A",
      "/Users/..",
      "/Groups/0",
      "/Groups/1e3",
      "/Groups/99999999999999999999",
      "/Users/a/b",
      "/",
      "",
      "/Schemas/x",
      "/ResourceTypes/Nope"
    ]) {
      answers.push(await scim.call("GET", path))
      answers.push(await scim.call("DELETE", path))
    }
    answers.push(await api.call("POST", "/scim/v2/Users", { token: scim.token, rawBody: "{not json" }))
    for (const answer of answers) {
      expect(answer.status, answer.text).toBeLessThan(500)
      if (answer.status >= 400)
        expect(answer.body?.schemas, answer.text).toEqual(["urn:ietf:params:scim:api:messages:2.0:Error"])
    }
    const statuses = new Set(answers.map((answer) => answer.status))
    for (const expected of [400, 404, 405]) expect(statuses).toContain(expected)
    const after = await scim.call("GET", `/Users/${user.id}`)
    expect(after.body).toMatchObject({ userName: "target@example.com", active: true })
    const members = await api.call("GET", "/api/v1/team/members", { token: masterKey })
    expect(members.body).toHaveLength(1)
  })
})
