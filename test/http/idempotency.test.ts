import { DateTime, Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { auditTrailLayer, memoryKitLayer } from "../../adapters/memory/index.ts"
import { idempotencyKeys, idempotencyStoreLayer, RecordKit } from "../../adapters/resources/index.ts"
import { IdempotencyStore } from "../../core/index.ts"
import {
  addRole,
  changedStore,
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

  it("keeps each API key's keys apart, and apart from the master key that made them", async () => {
    const api = await startApi()
    const keyOf = async (name: string) => {
      const made = await api.call("POST", "/api/v1/organization/api-keys", {
        token: masterKey,
        body: { name, permissions: [1, 3] }
      })
      expect(made.status, made.text).toBe(200)
      return made.body.key as string
    }
    const [first, second] = [await keyOf("first"), await keyOf("second")]
    expect((await addRole(api, "from-first", withKey("shared", first))).status).toBe(200)
    for (const [token, roleKey] of [
      [second, "from-second"],
      [masterKey, "from-master"]
    ] as const) {
      const answer = await addRole(api, roleKey, withKey("shared", token))
      expect(answer.status, answer.text).toBe(200)
      expect(answer.headers.get("idempotent-replayed")).toBeNull()
      expect(answer.body.roleKey).toBe(roleKey)
    }
    const replayed = await addRole(api, "from-first", withKey("shared", first))
    expect(replayed.headers.get("idempotent-replayed")).toBe("true")
    expect(await roleCount(api)).toBe(3)
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
    const forgetful = changedStore(IdempotencyStore, (store) => ({
      ...store,
      finish: () => Effect.die(new Error("killed"))
    }))
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

describe("Idempotency-Key replays only to the principal that stored the answer", () => {
  const staffRole = { name: "Staff", roleKey: "staff" }

  it("not after logout, nor to another member sending the same key and body", async () => {
    const api = await startApi()
    const ann = await memberWithPermissions(api, "ann", [1, 3])
    const ben = await memberWithPermissions(api, "ben", [1, 3])
    const first = await addRole(api, staffRole, withKey("mine", ann.token))
    expect(first.status).toBe(200)
    // Ben's request with Ann's key and body is his own: it runs (into the taken key), nothing replayed.
    const bens = await addRole(api, staffRole, withKey("mine", ben.token))
    expectProblem(bens, 409, "duplicate_role_key")
    expect(bens.headers.get("idempotent-replayed")).toBeNull()
    await api.call("POST", "/api/v1/auth/logout", { token: ann.token })
    const afterLogout = await addRole(api, staffRole, withKey("mine", ann.token))
    expectProblem(afterLogout, 401, "unauthorized")
    expect(afterLogout.text).not.toContain(first.body.createdAt)
  })

  it("not to a member who has since lost the permission", async () => {
    const api = await startApi()
    const ann = await memberWithPermissions(api, "ann", [1, 3])
    expect((await addRole(api, staffRole, withKey("k", ann.token))).status).toBe(200)
    const record = await api.call("GET", `/api/v1/team/roles/${ann.role.id}`, { token: masterKey })
    expect(record.status).toBe(200)
    const detail = await api.call("POST", "/api/v1/team/role-permission-detail", {
      token: masterKey,
      body: { roleId: ann.role.id, permissionId: 1 }
    })
    await api.call("DELETE", `/api/v1/team/role-permission-detail/${detail.body.id}`, {
      token: masterKey,
      body: { permissionId: 3 }
    })
    const again = await addRole(api, staffRole, withKey("k", ann.token))
    expectProblem(again, 403, "forbidden")
    expect(again.headers.get("idempotent-replayed")).toBeNull()
  })

  it("the same principal with another token of theirs gets the replay; the master key is one principal", async () => {
    const api = await startApi()
    const ann = await memberWithPermissions(api, "ann", [1, 3])
    expect((await addRole(api, staffRole, withKey("k", ann.token))).status).toBe(200)
    const second = await api.call("POST", "/api/v1/auth/login", { body: { username: "ann", password } })
    const replay = await addRole(api, staffRole, withKey("k", second.body.token))
    expect(replay.status).toBe(200)
    expect(replay.headers.get("idempotent-replayed")).toBe("true")
  })

  it("stores nothing for requests that fail authentication", async () => {
    // Every claim is stored by a start: counting the starts counts what is stored.
    let claims = 0
    const counted = changedStore(IdempotencyStore, (store) => ({
      ...store,
      start: (key, claim) =>
        Effect.suspend(() => {
          claims += 1
          return store.start(key, claim)
        })
    }))
    const api = await startApi({ override: counted })
    for (let i = 0; i < 5; i++) {
      const answer = await addRole(api, staffRole, withKey(`k${i}`, "rss_not_a_session"))
      expectProblem(answer, 401, "unauthorized")
    }
    expect(claims).toBe(0)
    expect((await addRole(api, staffRole, withKey("k0"))).status).toBe(200)
    expect(claims).toBe(1)
  })
})

describe("the idempotency store on the in-memory kit", () => {
  it("sweeps out expired keys, so memory stays bounded", async () => {
    const at = (ms: number) => DateTime.makeUnsafe(ms)
    const claimOf = (now: DateTime.Utc, expiresAt: DateTime.Utc) => ({
      requestHash: "h",
      requestKey: "r",
      now,
      expiresAt,
      leaseUntil: expiresAt
    })
    const held = await Effect.runPromise(
      Effect.gen(function* () {
        const store = yield* IdempotencyStore
        const claims = yield* (yield* RecordKit).open(idempotencyKeys)
        for (let i = 0; i < 100; i++) {
          yield* store.start({ scope: "master", key: `k${i}` }, claimOf(at(0), at(1000)))
        }
        const before = yield* claims.count({})
        yield* store.start({ scope: "master", key: "later" }, claimOf(at(120_000), at(200_000)))
        return [before, yield* claims.count({})]
      }).pipe(
        Effect.provide(
          Layer.provideMerge(idempotencyStoreLayer, Layer.provideMerge(memoryKitLayer, auditTrailLayer))
        )
      )
    )
    expect(held).toEqual([100, 1])
  })
})
