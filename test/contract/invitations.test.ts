import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Option } from "effect"
import {
  CurrentOrganization,
  defaultOrganizationId,
  Invitation,
  InvitationId,
  InvitationStore,
  OrganizationId,
  RoleId,
  TokenHash
} from "../../core/index.ts"
import { assertEquals, at, inParallel, valueOf } from "../support/contract.ts"
import { kitStoreKinds } from "../support/stores.ts"

const other = OrganizationId.make("org-other")
const inOther = Effect.provideService(CurrentOrganization, other)

const hashOf = (n: number) => TokenHash.make(n.toString(16).padStart(64, "0"))

/** An invitation made at second `second`, valid for an hour. */
const invitation = (n: number, email: string, second = n, organizationId = defaultOrganizationId) =>
  new Invitation({
    id: InvitationId.make(`inv-${n}`),
    organizationId,
    email,
    roleId: RoleId.make(1),
    status: "pending",
    tokenHash: hashOf(n),
    expiresAt: at(second + 3600),
    createdAt: at(second)
  })

const emailsOf = (invitations: ReadonlyArray<Invitation>) => invitations.map((found) => found.email)

describe.each(kitStoreKinds)("InvitationStore on %s", (_, stores) => {
  it.effect("finds an invitation by id in its organisation, by its token's hash anywhere", () =>
    Effect.gen(function* () {
      const store = yield* InvitationStore
      const grace = invitation(1, "grace@example.com")
      yield* store.replace(grace)
      assertEquals(valueOf(yield* store.findById(grace.id)), grace)
      assertEquals(valueOf(yield* store.findByTokenHash(grace.tokenHash)), grace)
      assert.isTrue(Option.isNone(yield* inOther(store.findById(grace.id))), "not another organisation's")
      assert.isTrue(Option.isNone(yield* store.findByTokenHash(hashOf(99))))
      assert.deepStrictEqual(yield* inOther(store.page({ now: at(0) }, 10)), [])
      assert.isTrue(Option.isNone(yield* inOther(store.revoke(grace.id))))
      assert.strictEqual(valueOf(yield* store.findById(grace.id)).status, "pending")
    }).pipe(Effect.provide(stores()))
  )

  it.effect("one invitation per e-mail is pending: a new one replaces it, in its organisation only", () =>
    Effect.gen(function* () {
      const store = yield* InvitationStore
      yield* store.replace(invitation(1, "grace@example.com"))
      yield* inOther(store.replace(invitation(2, "grace@example.com", 2, other)))
      yield* store.replace(invitation(3, "grace@example.com"))
      assert.deepStrictEqual(
        (yield* store.page({ now: at(10) }, 10)).map((found) => found.id),
        ["inv-3"]
      )
      assert.isTrue(Option.isNone(yield* store.findByTokenHash(hashOf(1))), "the replaced token is unknown")
      assert.lengthOf(yield* inOther(store.page({ now: at(10) }, 10)), 1)
      const results = yield* inParallel(6, (i) => store.replace(invitation(10 + i, "hopper@example.com")))
      assert.lengthOf(results, 6)
      assert.lengthOf(
        yield* store.page({ now: at(10), status: "pending" }, 10),
        2,
        "grace's and one of hopper's"
      )
    }).pipe(Effect.provide(stores()))
  )

  it.effect("a claim takes a pending, unexpired invitation once; a revoked or expired one is not taken", () =>
    Effect.gen(function* () {
      const store = yield* InvitationStore
      yield* store.replace(invitation(1, "grace@example.com"))
      const claims = yield* inParallel(8, () => store.claim(hashOf(1), at(5)))
      assert.lengthOf(claims.filter(Option.isSome), 1, "one claim wins")
      assert.strictEqual(valueOf(yield* store.findById(InvitationId.make("inv-1"))).status, "accepted")
      assert.isTrue(Option.isNone(yield* store.revoke(InvitationId.make("inv-1"))), "accepted stays accepted")

      yield* store.replace(invitation(2, "hopper@example.com"))
      assert.strictEqual(valueOf(yield* store.revoke(InvitationId.make("inv-2"))).status, "revoked")
      assert.isTrue(Option.isNone(yield* store.claim(hashOf(2), at(5))))

      yield* store.replace(invitation(3, "lamarr@example.com"))
      assert.isTrue(Option.isNone(yield* store.claim(hashOf(3), at(3 + 3600))), "expired at its time")
      // A new invitation for an e-mail whose last one was accepted or revoked is pending beside it.
      yield* store.replace(invitation(4, "grace@example.com"))
      const now = at(3 + 3600)
      assert.deepStrictEqual(emailsOf(yield* store.page({ now, status: "accepted" }, 10)), [
        "grace@example.com"
      ])
      assert.deepStrictEqual(emailsOf(yield* store.page({ now, status: "revoked" }, 10)), [
        "hopper@example.com"
      ])
      assert.deepStrictEqual(emailsOf(yield* store.page({ now, status: "expired" }, 10)), [
        "lamarr@example.com"
      ])
      assert.deepStrictEqual(emailsOf(yield* store.page({ now, status: "pending" }, 10)), [
        "grace@example.com"
      ])
    }).pipe(Effect.provide(stores()))
  )

  it.effect(
    "pages oldest first from a position, the id breaking ties; an organisation's deletion takes them all",
    () =>
      Effect.gen(function* () {
        const store = yield* InvitationStore
        for (const [n, second] of [
          [1, 30],
          [2, 10],
          [3, 20],
          [4, 20]
        ] as const) {
          yield* store.replace(invitation(n, `person${n}@example.com`, second))
        }
        const now = DateTime.makeUnsafe(0)
        const first = yield* store.page({ now }, 2)
        assert.deepStrictEqual(
          first.map((found) => found.id),
          ["inv-2", "inv-3"]
        )
        const last = first[1]
        if (last === undefined) return assert.fail("a second item")
        const rest = yield* store.page({ now, after: { createdAt: last.createdAt, id: last.id } }, 10)
        assert.deepStrictEqual(
          rest.map((found) => found.id),
          ["inv-4", "inv-1"]
        )
        yield* inOther(store.replace(invitation(5, "theirs@example.com", 1, other)))
        yield* store.removeAll
        assert.deepStrictEqual(yield* store.page({ now }, 10), [])
        assert.lengthOf(yield* inOther(store.page({ now }, 10)), 1)
      }).pipe(Effect.provide(stores()))
  )
})
