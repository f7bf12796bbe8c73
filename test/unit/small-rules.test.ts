import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted, Schema } from "effect"
import { TestClock } from "effect/testing"
import {
  AuditAction,
  authenticate,
  CurrentRequestKey,
  createApiKey,
  createScimToken,
  Forbidden,
  inviteMember,
  isOwnerRole,
  listInvitations,
  listScimTokens,
  newAuditEntry,
  normalizeEmail,
  permissionIdOf,
  permissionsOf,
  RoleId,
  revokeInvitation,
  setAccountStatus,
  type Unauthenticated
} from "../../core/index.ts"
import { auditRecord } from "../support/audit.ts"
import { actorWith, failureOf, master, provideRoster, roleWith } from "../support/roster.ts"

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

describe("an invitation's status", () => {
  it.effect("is expired once pending past its end, and stays revoked", () =>
    Effect.gen(function* () {
      const staff = yield* roleWith("staff", [])
      const { invitation: pending } = yield* inviteMember(master, {
        email: "a@example.com",
        roleId: staff.id
      })
      const { invitation: revoked } = yield* inviteMember(master, {
        email: "b@example.com",
        roleId: staff.id
      })
      yield* revokeInvitation(master, revoked.id)
      const statuses = Effect.map(listInvitations(master), (page) =>
        Object.fromEntries(page.items.map((invitation) => [invitation.id, invitation.status]))
      )
      assert.deepStrictEqual(yield* statuses, { [pending.id]: "pending", [revoked.id]: "revoked" })
      yield* TestClock.adjust("7 days")
      assert.deepStrictEqual(yield* statuses, { [pending.id]: "expired", [revoked.id]: "revoked" })
    }).pipe(provideRoster())
  )
})

describe("an API key holding organization.write", () => {
  it.effect("holds it: a key is no SCIM token", () =>
    Effect.gen(function* () {
      const { key } = yield* createApiKey(master, { name: "Admin", permissions: ["organization.write"] })
      const machine = yield* authenticate(Option.some(key))
      assert.isTrue(permissionsOf(machine).has(permissionIdOf("organization.write")))
    }).pipe(provideRoster())
  )
})

describe("the model's names and forms", () => {
  it("records the actions the use cases take", () => {
    for (const action of ["organization.updated", "invitation.revoked", "scim_token.revoked"]) {
      assert.isTrue(Schema.is(AuditAction)(action), action)
    }
  })

  it("keeps an e-mail's domain as DNS knows it", () => {
    assert.strictEqual(normalizeEmail("Ada@Bücher.Example"), "ada@xn--bcher-kva.example")
    assert.strictEqual(normalizeEmail("ada@EXAMPLE.com"), "ada@example.com")
  })

  it.effect("takes an API key only whole: nothing before its prefix", () =>
    Effect.gen(function* () {
      const { key } = yield* createApiKey(master, { name: "Sync", permissions: [] })
      const refused = failureOf(
        yield* Effect.exit(authenticate(Option.some(Redacted.make(`x${Redacted.value(key)}`))))
      )
      assert.strictEqual((refused as Unauthenticated).reason, "invalid")
    }).pipe(provideRoster())
  )
})
