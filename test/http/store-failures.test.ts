import { Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { auditTrailLayer, makeRoleStore } from "../../adapters/memory/index.ts"
import { RoleStore, StoreUnavailable, StoreWrites } from "../../core/index.ts"
import { expectProblem, masterKey, startApi } from "../support/http.ts"

/**
 * A role store whose inserts fail as a store adapter reports them: `afterWriting`, the write took
 * effect and the connection broke before the answer (the adapter marks it uncertain); otherwise the
 * database could not be reached and nothing was sent.
 */
const failingInserts = (afterWriting: boolean) =>
  Layer.effect(RoleStore)(
    Effect.map(makeRoleStore, (store) => ({
      ...store,
      insert: (role, audit) =>
        afterWriting
          ? Effect.flatMap(store.insert(role, audit), () =>
              Effect.flatMap(StoreWrites, (ledger) => {
                ledger.uncertain = true
                return Effect.fail(new StoreUnavailable())
              })
            )
          : Effect.fail(new StoreUnavailable())
    }))
  ).pipe(Layer.provide(auditTrailLayer))

const addRole = (api: Awaited<ReturnType<typeof startApi>>, key?: string) =>
  api.call("POST", "/api/v1/team/role/add", {
    token: masterKey,
    body: { name: "Ops", roleKey: "ops" },
    ...(key === undefined ? {} : { headers: { "idempotency-key": key } })
  })

describe("what a 503 promises", () => {
  it("unavailable: nothing changed, and a retry with the same key runs afresh", async () => {
    const api = await startApi({ override: failingInserts(false) })
    const answer = await addRole(api, "k")
    expectProblem(answer, 503, "unavailable")
    expect(answer.body.detail).toMatch(/changed nothing/)
    expect((await api.call("GET", "/api/v1/team/roles", { token: masterKey })).body).toEqual([])
    // The key was given back: the retry runs (and fails alike), it is not told to wait.
    expectProblem(await addRole(api, "k"), 503, "unavailable")
  })

  it("outcome_unknown when the write may have taken effect; the key stays claimed, never run twice", async () => {
    const api = await startApi({ override: failingInserts(true) })
    const answer = await addRole(api, "k")
    expectProblem(answer, 503, "outcome_unknown")
    const roles = await api.call("GET", "/api/v1/team/roles", { token: masterKey })
    expect(roles.body.map((role: { roleKey: string }) => role.roleKey)).toEqual(["ops"])
    expectProblem(await addRole(api, "k"), 409, "request_in_progress")
    expect((await api.call("GET", "/api/v1/team/roles", { token: masterKey })).body).toHaveLength(1)
  })
})
