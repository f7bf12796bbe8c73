import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import {
  CurrentRequestKey,
  createScimToken,
  Forbidden,
  isOwnerRole,
  listScimTokens,
  newAuditEntry,
  RoleId,
  setAccountStatus
} from "../../core/index.ts"
import { auditRecord } from "../support/audit.ts"
import { actorWith, failureOf, master, provideRoster } from "../support/roster.ts"

describe("an audit entry's stamps", () => {
  it.effect("carries the request's idempotency key only when the request has one", () =>
    Effect.gen(function* () {
      const target = { type: "role", id: "1" } as const
      const keyed = yield* newAuditEntry({ kind: "master" }, "role.updated", target).pipe(
        Effect.provideService(CurrentRequestKey, "key-1")
      )
      assert.strictEqual(keyed.requestKey, "key-1")
      const plain = yield* newAuditEntry({ kind: "master" }, "role.updated", target)
      assert.isFalse("requestKey" in plain)
    }).pipe(provideRoster())
  )
})

describe("SCIM tokens", () => {
  it.effect(
    "are made and listed by holders of organization.write only; the entry names the token's power",
    () =>
      Effect.gen(function* () {
        const { principal: reader } = yield* actorWith("reader", ["team.read"])
        const refused = failureOf(yield* Effect.exit(listScimTokens(reader)))
        assert.strictEqual((refused as Forbidden).reason, "missing_permission")
        assert.strictEqual((refused as Forbidden).permission, "organization.write")
        const { scimToken, token } = yield* createScimToken(master, { name: "IdP" })
        assert.match(Redacted.value(token), /^rsc_/)
        const [entry] = yield* auditRecord
        assert.deepStrictEqual(entry?.changes, {
          name: [null, "IdP"],
          permissionIds: [null, scimToken.permissionIds]
        })
        assert.deepStrictEqual(
          (yield* listScimTokens(master)).map((listed) => listed.id),
          [scimToken.id]
        )
      }).pipe(provideRoster())
  )
})

describe("enabling an account", () => {
  it.effect("is allowed on one's own, which only disabling is not", () =>
    Effect.gen(function* () {
      const { principal, member } = yield* actorWith("admin", ["team.read", "admin.accounts.write"])
      const enabled = yield* setAccountStatus(principal, { memberId: member.id, active: true })
      assert.isTrue(enabled.accountActiveStatus)
      const refused = failureOf(
        yield* Effect.exit(setAccountStatus(principal, { memberId: member.id, active: false }))
      )
      assert.instanceOf(refused, Forbidden)
    }).pipe(provideRoster())
  )
})

describe("an owners' role", () => {
  it.effect("is none that does not exist", () =>
    Effect.gen(function* () {
      assert.strictEqual(yield* isOwnerRole(RoleId.make(999)), false)
    }).pipe(provideRoster())
  )
})
