import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import {
  AccountToken,
  AccountTokenPurpose,
  AccountTokenStore,
  CurrentOrganization,
  defaultOrganizationId,
  MemberId,
  MemberStore,
  TokenHash
} from "../../core/index.ts"
import {
  assertEquals,
  at,
  inParallel,
  memberRecord,
  otherOrganization,
  valueOf,
  withRoles
} from "../support/contract.ts"
import { kitStoreKinds, storeKinds } from "../support/stores.ts"

const hash = (n: number) => TokenHash.make(n.toString(16).padStart(64, "0"))

const tokenOf = (n: number, overrides: Partial<ConstructorParameters<typeof AccountToken>[0]> = {}) =>
  new AccountToken({
    tokenHash: hash(n),
    purpose: "password_reset",
    accountId: MemberId.make("member-ada"),
    organizationId: defaultOrganizationId,
    email: "ada@example.com",
    createdAt: at(n),
    expiresAt: at(n + 3600),
    triesLeft: 1,
    sessionEpoch: n % 3,
    ...overrides
  })

describe.each(kitStoreKinds)("AccountTokenStore on %s", (_, stores) => {
  it.effect("keeps one token per account and purpose: a new one replaces the old", () =>
    Effect.gen(function* () {
      const tokens = yield* AccountTokenStore
      yield* tokens.issue(tokenOf(1))
      yield* tokens.issue(tokenOf(2, { purpose: "email_verification" }))
      yield* tokens.issue(tokenOf(3, { accountId: MemberId.make("member-bob"), email: "bob@example.com" }))
      yield* tokens.issue(tokenOf(4))
      assert.isTrue(Option.isNone(yield* tokens.find("password_reset", hash(1))), "replaced")
      assertEquals(valueOf(yield* tokens.find("password_reset", hash(4))), tokenOf(4))
      assertEquals(
        valueOf(yield* tokens.find("email_verification", hash(2))),
        tokenOf(2, { purpose: "email_verification" })
      )
      assert.isTrue(Option.isSome(yield* tokens.find("password_reset", hash(3))), "another account's stays")
      assert.isTrue(
        Option.isNone(yield* tokens.find("email_verification", hash(4))),
        "a token serves its own purpose only"
      )
    }).pipe(Effect.provide(stores()))
  )

  it.effect("keeps a token of every purpose, each with its epoch", () =>
    Effect.gen(function* () {
      const tokens = yield* AccountTokenStore
      const each = AccountTokenPurpose.literals.map((purpose, n) =>
        tokenOf(10 + n, { purpose, sessionEpoch: n })
      )
      for (const token of each) yield* tokens.issue(token)
      for (const token of each)
        assertEquals(valueOf(yield* tokens.find(token.purpose, token.tokenHash)), token)
    }).pipe(Effect.provide(stores()))
  )

  it.effect("is used once: consumed, it is gone, and of many uses at once exactly one gets it", () =>
    Effect.gen(function* () {
      const tokens = yield* AccountTokenStore
      yield* tokens.issue(tokenOf(1))
      assert.isTrue(Option.isNone(yield* tokens.consume("email_verification", hash(1))))
      const uses = yield* inParallel(8, () => tokens.consume("password_reset", hash(1)))
      const winners = uses.filter(Option.isSome)
      assert.lengthOf(winners, 1)
      assertEquals(valueOf(winners[0] ?? Option.none()), tokenOf(1))
      assert.isTrue(Option.isNone(yield* tokens.find("password_reset", hash(1))))
      assert.isTrue(Option.isNone(yield* tokens.consume("password_reset", hash(9))), "an unknown token")
    }).pipe(Effect.provide(stores()))
  )

  it.effect("answers an expired token as it is (its reader decides), and forgets it once replaced", () =>
    Effect.gen(function* () {
      const tokens = yield* AccountTokenStore
      const expired = tokenOf(1, { createdAt: at(0), expiresAt: at(1) })
      yield* tokens.issue(expired)
      assertEquals(valueOf(yield* tokens.find("password_reset", hash(1))), expired)
      yield* tokens.issue(tokenOf(2))
      assert.isTrue(Option.isNone(yield* tokens.find("password_reset", hash(1))))
    }).pipe(Effect.provide(stores()))
  )
})

describe.each(storeKinds)("MemberStore.verifyEmail on %s", (_, stores) => {
  it.effect(
    "marks the account's address verified only while it is the proven one, in its organisations",
    () =>
      Effect.gen(function* () {
        const members = yield* MemberStore
        const ada = memberRecord("ada")
        yield* members.insert(ada)
        assert.isTrue(Option.isNone(yield* members.verifyEmail(ada.id, "old@example.com")), "another address")
        assert.isFalse(valueOf(yield* members.findAccount(ada.id)).emailVerified)
        assert.isTrue(
          Option.isNone(
            yield* Effect.provideService(
              members.verifyEmail(ada.id, ada.email),
              CurrentOrganization,
              otherOrganization
            )
          ),
          "no member of that organisation"
        )
        const verified = valueOf(yield* members.verifyEmail(ada.id, ada.email))
        assert.isTrue(verified.emailVerified)
        assert.isTrue(valueOf(yield* members.findById(ada.id)).emailVerified)
        assert.isTrue(valueOf(yield* members.findAccount(ada.id)).emailVerified)
        const moved = valueOf(
          yield* members.updateAccount(ada.id, { email: "ada@elsewhere.example", emailVerified: false })
        )
        assert.isFalse(moved.emailVerified)
        assert.isFalse(valueOf(yield* members.findByLogin("ada")).emailVerified)
      }).pipe(Effect.provide(withRoles(stores())))
  )

  it.effect("keeps a new account's verified address as it was given", () =>
    Effect.gen(function* () {
      const members = yield* MemberStore
      const grace = memberRecord("grace", { emailVerified: true })
      yield* members.insert(grace)
      assert.isTrue(valueOf(yield* members.findById(grace.id)).emailVerified)
      assert.isTrue(valueOf(yield* members.findByLogin("grace@example.com")).emailVerified)
    }).pipe(Effect.provide(withRoles(stores())))
  )
})
