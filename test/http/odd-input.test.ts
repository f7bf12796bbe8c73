import { describe, expect, it } from "vitest"
import { expectProblem, startApi } from "../support/http.ts"

const role = { name: "Readers", roleKey: "readers" }

describe("request bodies in another charset or encoding", () => {
  it("are refused with 415 and change nothing", async () => {
    const api = await startApi({ mode: "open" })
    const refused = [
      { "content-type": "application/json; charset=iso-8859-1" },
      { "content-type": "*/*; charset=windows-1252" },
      { "content-type": "application/json", "content-encoding": "gzip" },
      { "content-encoding": "br" }
    ]
    for (const headers of refused) {
      const answer = await api.call("POST", "/api/v1/team/role/add", { body: role, headers })
      expectProblem(answer, 415, "unsupported_media_type")
    }
    expect((await api.call("GET", "/api/v1/team/roles")).body).toEqual([])
  })

  it("are read as JSON in UTF-8 whatever else the content type says", async () => {
    const api = await startApi({ mode: "open" })
    for (const [index, contentType] of [
      "application/json; charset=UTF-8",
      "text/plain",
      '*/*; charset="utf-8"'
    ].entries()) {
      const answer = await api.call("POST", "/api/v1/team/role/add", {
        body: { name: `Role ${index}`, roleKey: `role-${index}` },
        headers: { "content-type": contentType, "content-encoding": "identity" }
      })
      expect(answer.status, contentType).toBe(200)
    }
  })
})

describe("request bodies that are not UTF-8", () => {
  it("are refused with 400 instead of being stored with replacement characters", async () => {
    const api = await startApi({ mode: "open" })
    const json = new TextEncoder().encode('{"name":"Caf\u00e9","roleKey":"cafe"}')
    const latin1 = Uint8Array.from(
      [...json].flatMap((byte, i) => (json[i - 1] === 0xc3 ? [] : byte === 0xc3 ? [0xe9] : [byte]))
    )
    for (const body of [
      latin1,
      Uint8Array.from([0x7b, 0xff, 0xfe, 0x7d]),
      Uint8Array.from([0x7b, 0xed, 0xa0, 0x80, 0x7d])
    ]) {
      const answer = await api.web.handler(
        new Request("http://localhost/api/v1/team/role/add", {
          method: "POST",
          headers: { "content-type": "*/*" },
          body
        })
      )
      expect(answer.status).toBe(400)
      const problem = await answer.json()
      expect(problem.code).toBe("validation_failed")
      expect(problem.errors).toEqual([{ path: "body", message: expect.stringContaining("UTF-8") }])
    }
    expect((await api.call("GET", "/api/v1/team/roles")).body).toEqual([])
    const valid = await api.web.handler(
      new Request("http://localhost/api/v1/team/role/add", {
        method: "POST",
        headers: { "content-type": "*/*" },
        body: json
      })
    )
    expect(((await valid.json()) as { name: string }).name).toBe("Café")
  })
})

describe("names with hidden characters", () => {
  it.each([
    ["a control character", "Read\u0000ers"],
    ["a C1 control", "Read\u0085ers"],
    ["a bidirectional override", "Readers\u202Egnp.exe"],
    ["a bidirectional isolate", "\u2067Readers"],
    ["a lone surrogate", "Readers \uD800"],
    ["a zero-width space", "Read\u200Bers"],
    ["a byte-order mark", "\uFEFFReaders"],
    ["a private-use character", "Readers \uE000"]
  ])("are refused with 400 when a role name has %s", async (_, name) => {
    const api = await startApi({ mode: "open" })
    const answer = await api.call("POST", "/api/v1/team/role/add", { body: { name, roleKey: "readers" } })
    const problem = expectProblem(answer, 400, "validation_failed")
    expect(problem.errors).toContainEqual(expect.objectContaining({ path: "body.name" }))
  })

  it("are refused in e-mail addresses, and usernames and role keys are ASCII only", async () => {
    const api = await startApi({ mode: "open" })
    await api.call("POST", "/api/v1/team/role/add", { body: role })
    const member = {
      username: "ada",
      email: "ada@example.com",
      password: "a long passphrase",
      activestatus: true,
      roleId: 1
    }
    for (const change of [
      { email: "ad\u202Ea@example.com" },
      { email: "zw\u200b.x@example.com" },
      { email: "ada@exam\u00ADple.com" },
      { username: "adä" },
      { username: "ad\u0000a" }
    ]) {
      expectProblem(
        await api.call("POST", "/api/v1/team/add", { body: { ...member, ...change } }),
        400,
        "validation_failed"
      )
    }
    const key = await api.call("POST", "/api/v1/team/role/add", { body: { name: "Other", roleKey: "rôle" } })
    expectProblem(key, 400, "validation_failed")
    expect((await api.call("GET", "/api/v1/team/members")).body).toEqual([])
  })

  it("are stored in NFC, with an e-mail's domain in its ASCII form", async () => {
    const api = await startApi({ mode: "open" })
    const added = await api.call("POST", "/api/v1/team/role/add", {
      body: { name: "E\u0301quipe", roleKey: "equipe" }
    })
    expect(added.body.name).toBe("\u00C9quipe")
    const add = (username: string, email: string) =>
      api.call("POST", "/api/v1/team/add", {
        body: { username, email, password: "a long passphrase", activestatus: true, roleId: added.body.id }
      })
    const member = await add("rene", "Rene\u0301@Bücher.Example")
    expect(member.body.email).toBe("ren\u00E9@xn--bcher-kva.example")
    // The same address spelt precomposed and in ASCII is the same address.
    const duplicate = await add("rene2", "ren\u00E9@xn--bcher-kva.example")
    expectProblem(duplicate, 409, "duplicate_email")
  })

  it("leave names in other scripts alone", async () => {
    const api = await startApi({ mode: "open" })
    const answer = await api.call("POST", "/api/v1/team/role/add", {
      body: { name: "Лидеры 指導者 🚀", roleKey: "leads" }
    })
    expect(answer.status).toBe(200)
  })
})

describe("paths", () => {
  it("answer an over-long member id with one 400, whatever its length", async () => {
    const api = await startApi({ mode: "open" })
    expectProblem(await api.call("GET", `/api/v1/team/members/${"a".repeat(128)}`), 404, "not_found")
    for (const length of [129, 256, 257, 512, 513, 5000]) {
      const answer = await api.call("GET", `/api/v1/team/members/${"a".repeat(length)}`)
      const problem = expectProblem(answer, 400, "validation_failed")
      expect(answer.text.length, String(length)).toBeLessThan(1000)
      expect(problem.errors.length).toBeGreaterThan(0)
    }
  })

  it("echo at most an excerpt of an unknown path", async () => {
    const api = await startApi({ mode: "open" })
    const answer = await api.call("GET", `/api/v1/${"x".repeat(5000)}`)
    const problem = expectProblem(answer, 404, "not_found")
    expect(problem.detail.length).toBeLessThan(200)
    expect(problem.detail).toContain("(5008 characters)")
  })

  it("match exactly: no trailing or doubled slash, no other spelling of a number", async () => {
    const api = await startApi({ mode: "open" })
    await api.call("POST", "/api/v1/team/role/add", { body: role })
    await api.call("POST", "/api/v1/team/role-permission-detail", { body: { roleId: 1, permissionId: 1 } })
    expect((await api.call("GET", "/api/v1/team/role-permission-detail/1")).status).toBe(200)
    for (const id of ["01", "+1", "1.0", "-0", "1e0"]) {
      const answer = await api.call("GET", `/api/v1/team/role-permission-detail/${id}`)
      expectProblem(answer, 400, "validation_failed")
    }
    for (const path of ["/api/v1//team/members", "/api/v1/team/permissions/", "/health/live/"]) {
      expectProblem(await api.call("GET", path), 404, "not_found")
    }
    // The slash is part of the path: this one names a member with an empty id.
    const empty = expectProblem(await api.call("GET", "/api/v1/team/members/"), 400, "validation_failed")
    expect(empty.errors).toEqual([expect.objectContaining({ path: "params.id" })])
  })
})
