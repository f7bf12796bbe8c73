import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { AuditLog, type Forbidden, PermissionKey, updateMember } from "../../core/index.ts"
import { countingWrites } from "../support/member-writes.ts"
import { actorWith, failureOf, master, provideRoster, readersAdaAndBob } from "../support/roster.ts"

const updates = AuditLog.use((log) => log.page({ action: "member.updated" }, 50))

describe("changing a member", () => {
  it.effect("writes the account's part alone when only it changes, and nothing when nothing does", () =>
    Effect.gen(function* () {
      const { ada } = yield* readersAdaAndBob
      const renamed = yield* countingWrites(updateMember(master, ada.id, { email: "countess@example.com" }))
      assert.deepStrictEqual(renamed.writes, ["account"])
      const same = yield* countingWrites(
        updateMember(master, ada.id, { username: "ada", email: "COUNTESS@example.com" })
      )
      assert.deepStrictEqual(same.writes, ["update"], "an empty change is the membership's read-and-answer")
      assert.lengthOf(yield* updates, 1)
      const [entry] = yield* updates
      assert.deepStrictEqual(entry?.changes, { email: ["ada@example.com", "countess@example.com"] })
    }).pipe(provideRoster())
  )

  it.effect("lets a member activate but not deactivate themselves", () =>
    Effect.gen(function* () {
      const { principal, member } = yield* actorWith("admin", ["team.read", "team.members.write"])
      const active = yield* updateMember(principal, member.id, { activestatus: true })
      assert.isTrue(active.activestatus)
      const refused = failureOf(
        yield* Effect.exit(updateMember(principal, member.id, { activestatus: false }))
      )
      assert.strictEqual((refused as Forbidden).reason, "self_action")
    }).pipe(provideRoster())
  )

  it.effect("lets the only owner change their own username", () =>
    Effect.gen(function* () {
      const { principal, member } = yield* actorWith("owner", PermissionKey.literals)
      const changed = yield* updateMember(principal, member.id, { username: "owner2" })
      assert.strictEqual(changed.username, "owner2")
    }).pipe(provideRoster())
  )
})
