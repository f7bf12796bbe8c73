import { Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { makeIdempotencyStore } from "../../adapters/memory/idempotency-store.ts"
import { IdempotencyStore } from "../../core/index.ts"
import {
  addRole,
  expectProblem,
  masterKey,
  memberWithPermissions,
  password,
  startApi,
  type TestApi
} from "../support/http.ts"

const withKey = (key: string, token = masterKey) => ({ token, headers: { "idempotency-key": key } })

const roleCount = async (api: TestApi) =>
  (await api.call("GET", "/api/v1/team/roles?limit=200", { token: masterKey })).body.length as number

describe("Idempotency-Key", () => {
  it("replays the first answer to a repeat, with Idempotent-Replayed, and runs nothing again", async () => {
    const api = await startApi()
    const first = await addRole(api, "staff", withKey("key-1"))
    expect(first.status).toBe(200)
    expect(first.headers.get("idempotent-replayed")).toBeNull()
    const again = await addRole(api, "staff", withKey("key-1"))
    expect(again.status).toBe(200)
    expect(again.body).toEqual(first.body)
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    expect(again.headers.get("content-type")).toBe(first.headers.get("content-type"))
    expect(again.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"))
    expect(await roleCount(api)).toBe(1)
    // Without a key, or with another, it runs: here into the taken key.
    expectProblem(await addRole(api, "staff", { token: masterKey }), 409, "duplicate_role_key")
  })

  it("replays a refusal too, and refuses the key for another request with 422", async () => {
    const api = await startApi()
    await addRole(api, "staff", { token: masterKey })
    expectProblem(await addRole(api, "staff", withKey("key-2")), 409, "duplicate_role_key")
    const replayed = await addRole(api, "staff", withKey("key-2"))
    expectProblem(replayed, 409, "duplicate_role_key")
    expect(replayed.headers.get("idempotent-replayed")).toBe("true")
    expectProblem(await addRole(api, "crew", withKey("key-2")), 422, "idempotency_key_reused")
    const patch = await api.call("PATCH", "/api/v1/team/roles/1", {
      ...withKey("key-2"),
      body: { name: "Staff" }
    })
    expectProblem(patch, 422, "idempotency_key_reused")
    expect(await roleCount(api)).toBe(1)
  })

  it("keeps each caller's keys apart", async () => {
    const api = await startApi()
    const ann = await memberWithPermissions(api, "ann", [1, 3])
    const ben = await memberWithPermissions(api, "ben", [1, 3])
    expect((await addRole(api, "from-ann", withKey("shared", ann.token))).status).toBe(200)
    const bens = await addRole(api, "from-ben", withKey("shared", ben.token))
    expect(bens.status).toBe(200)
    expect(bens.headers.get("idempotent-replayed")).toBeNull()
    expect(bens.body.roleKey).toBe("from-ben")
  })

  it("of 20 parallel requests with one key, one runs and the others replay it or are told to wait", async () => {
    const api = await startApi()
    const role = await addRole(api, "staff", { token: masterKey })
    const body = {
      username: "ada",
      email: "ada@example.com",
      password,
      activestatus: true,
      roleId: role.body.id
    }
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => api.call("POST", "/api/v1/team/add", { ...withKey("parallel"), body }))
    )
    const ran = answers.filter(
      (answer) => answer.status === 200 && answer.headers.get("idempotent-replayed") === null
    )
    expect(ran).toHaveLength(1)
    for (const answer of answers) {
      if (answer.status === 409) expectProblem(answer, 409, "request_in_progress")
      else expect(answer.body).toEqual(ran[0]?.body)
    }
    const members = await api.call("GET", "/api/v1/team/members", { token: masterKey })
    expect(members.body).toHaveLength(1)
  })

  it("a request whose answer was never kept (the process died) holds its key: a retry is 409, never a second run", async () => {
    const forgetful = Layer.effect(IdempotencyStore)(
      Effect.map(makeIdempotencyStore, (store) => ({
        ...store,
        finish: () => Effect.die(new Error("killed"))
      }))
    )
    const api = await startApi({ override: forgetful })
    expect((await addRole(api, "staff", withKey("cut-off"))).status).toBe(200)
    expectProblem(await addRole(api, "staff", withKey("cut-off")), 409, "request_in_progress")
    expect(await roleCount(api)).toBe(1)
  })

  it("claims no key for a request without the credentials its route needs, nor on an unknown route", async () => {
    const api = await startApi()
    const anonymous = await api.call("POST", "/api/v1/team/role/add", {
      headers: { "idempotency-key": "first" },
      body: { name: "Staff", roleKey: "staff" }
    })
    expectProblem(anonymous, 401, "unauthorized")
    expectProblem(
      await api.call("PATCH", "/api/v1/team/role/add", withKey("first")),
      405,
      "method_not_allowed"
    )
    const signed = await addRole(api, "staff", withKey("first"))
    expect(signed.status).toBe(200)
    expect(signed.headers.get("idempotent-replayed")).toBeNull()
  })

  it.each([
    ["empty", ""],
    ["too long", "k".repeat(256)],
    ["with a tab", "a\tb"]
  ])("refuses a key that is %s with 400, running nothing", async (_, key) => {
    const api = await startApi()
    const answer = await addRole(api, "staff", withKey(key))
    expectProblem(answer, 400, "validation_failed")
    expect(answer.body.errors[0].path).toBe("headers.idempotency-key")
    expect(await roleCount(api)).toBe(0)
  })

  it("accepts 255 printable characters, and is ignored on GET", async () => {
    const api = await startApi()
    expect(
      (await addRole(api, "staff", withKey(`${"~".repeat(254)} `.trimEnd().padEnd(255, "!")))).status
    ).toBe(200)
    const read = await api.call("GET", "/api/v1/team/roles", withKey(""))
    expect(read.status).toBe(200)
  })
})
