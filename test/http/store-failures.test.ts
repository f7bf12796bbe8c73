import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { MemberStore, RoleStore, StoreUnavailable, StoreWrites } from "../../core/index.ts"
import { changedStore, expectProblem, masterKey, startApi, type TestApi } from "../support/http.ts"
import { password } from "../support/roster.ts"

/**
 * How a write fails as a store adapter reports it. `unreached`: the database could not be reached
 * and nothing was sent. `lost`: the write was sent and the connection broke; it did not take effect.
 * `applied`: it took effect and the connection broke before the answer. The last two are uncertain
 * to the adapter, which marks them so.
 */
type Failure = "unreached" | "lost" | "applied"

const failing = <A, E, R>(write: Effect.Effect<A, E, R>, failure: Failure) =>
  failure === "unreached"
    ? Effect.fail(new StoreUnavailable())
    : Effect.flatMap(failure === "applied" ? write : Effect.void, () =>
        Effect.flatMap(StoreWrites, (ledger) => {
          ledger.uncertain = true
          return Effect.fail(new StoreUnavailable())
        })
      )

/** Fails the first `times` calls as `failure` says; the rest run. */
const firstCalls = (times: number) => {
  let calls = 0
  return <A, E, R>(write: Effect.Effect<A, E, R>, failure: Failure) =>
    calls++ < times ? failing(write, failure) : write
}

/** A role store whose inserts fail. */
const failingRoleInserts = (failure: Failure, times = Number.POSITIVE_INFINITY) => {
  const fails = firstCalls(times)
  return changedStore(RoleStore, (store) => ({
    ...store,
    insert: (role, audit) => fails(store.insert(role, audit), failure)
  }))
}

const failingStatusChanges = (failure: Failure, times: number) => {
  const fails = firstCalls(times)
  return changedStore(MemberStore, (store) => ({
    ...store,
    setAccountStatus: (...args) => fails(store.setAccountStatus(...args), failure)
  }))
}

const addRole = (api: TestApi, key?: string) =>
  api.call("POST", "/api/v1/team/role/add", {
    token: masterKey,
    body: { name: "Ops", roleKey: "ops" },
    ...(key === undefined ? {} : { headers: { "idempotency-key": key } })
  })

const roleKeys = async (api: TestApi) =>
  (await api.call("GET", "/api/v1/team/roles", { token: masterKey })).body.map(
    (role: { roleKey: string }) => role.roleKey
  )

const actions = async (api: TestApi, action: string) =>
  (await api.call("GET", `/api/v1/audit/events?action=${action}`, { token: masterKey })).body

describe("what a 503 promises", () => {
  it("unavailable: nothing changed, and a retry with the same key runs afresh", async () => {
    const api = await startApi({ override: failingRoleInserts("unreached") })
    const answer = await addRole(api, "k")
    expectProblem(answer, 503, "unavailable")
    expect(answer.body.detail).toMatch(/changed nothing/)
    expect(await roleKeys(api)).toEqual([])
    // The key was given back: the retry runs (and fails alike), it is not told to wait.
    expectProblem(await addRole(api, "k"), 503, "unavailable")
  })

  it("outcome_unknown when the write took effect; the retry with the key finds it and answers, made once", async () => {
    const api = await startApi({ override: failingRoleInserts("applied", 1) })
    expectProblem(await addRole(api, "k"), 503, "outcome_unknown")
    expect(await roleKeys(api)).toEqual(["ops"])
    const retry = await addRole(api, "k")
    expect(retry.status).toBe(200)
    expect(retry.body).toMatchObject({ name: "Ops", roleKey: "ops" })
    expect(retry.headers.get("idempotent-replayed")).toBe("true")
    expect(await roleKeys(api)).toEqual(["ops"])
    const again = await addRole(api, "k")
    expect([again.status, again.body]).toEqual([200, retry.body])
    expect(await actions(api, "role.added")).toHaveLength(1)
    // Without the key, a retry cannot know: it runs, and meets the role it made.
    expectProblem(await addRole(api), 409, "duplicate_role_key")
  })

  it("outcome_unknown when the write was lost; the retry with the key makes it, once", async () => {
    const api = await startApi({ override: failingRoleInserts("lost", 1) })
    expectProblem(await addRole(api, "k"), 503, "outcome_unknown")
    expect(await roleKeys(api)).toEqual([])
    const retry = await addRole(api, "k")
    expect(retry.status).toBe(200)
    expect(retry.headers.get("idempotent-replayed")).toBeNull()
    expect(await roleKeys(api)).toEqual(["ops"])
    expect((await addRole(api, "k")).headers.get("idempotent-replayed")).toBe("true")
    expect(await actions(api, "role.added")).toHaveLength(1)
  })

  it("a retry while the store is still down waits on nothing and changes nothing", async () => {
    const api = await startApi({ override: failingRoleInserts("lost", 2) })
    expectProblem(await addRole(api, "k"), 503, "outcome_unknown")
    expectProblem(await addRole(api, "k"), 503, "outcome_unknown")
    expect((await addRole(api, "k")).status).toBe(200)
    expect(await roleKeys(api)).toEqual(["ops"])
  })

  it("a route that answers with a message says the earlier attempt did it; the account changed once", async () => {
    const api = await startApi({ override: failingStatusChanges("applied", 1) })
    const role = await addRole(api)
    const ada = await api.call("POST", "/api/v1/team/add", {
      token: masterKey,
      body: {
        username: "ada",
        email: "ada@example.com",
        password,
        activestatus: true,
        roleId: role.body.id
      }
    })
    expect(ada.status, ada.text).toBe(200)
    const disable = () =>
      api.call("POST", "/api/v1/admin/toggle-account-status", {
        token: masterKey,
        headers: { "idempotency-key": "off" },
        body: { user_id: ada.body.id, accountActiveStatus: false }
      })
    expectProblem(await disable(), 503, "outcome_unknown")
    const retry = await disable()
    expect(retry.status).toBe(200)
    expect(retry.body.message, retry.text).toMatch(/earlier attempt/)
    expect(await actions(api, "account.disabled")).toHaveLength(1)
    const member = await api.call("GET", `/api/v1/team/members/${ada.body.id}`, { token: masterKey })
    expect(member.body.accountActiveStatus).toBe(false)
  })
})
