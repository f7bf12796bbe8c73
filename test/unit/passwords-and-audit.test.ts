import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import {
  authenticate,
  changeOwnPassword,
  listAuditEvents,
  MemberId,
  RateLimited,
  setMemberPassword,
  WrongPassword
} from "../../core/index.ts"
import { assertForbidden, assertMissingPermission, assertNotFound } from "../support/assertions.ts"
import { actorWith, logInAs, master, password, provideRoster } from "../support/roster.ts"

const fresh = Redacted.make("a brand new passphrase")
const client = "192.0.2.9"

const signedIn = (token: Redacted.Redacted<string>) =>
  authenticate(Option.some(token)).pipe(
    Effect.as(true),
    Effect.catchTag("Unauthenticated", () => Effect.succeed(false))
  )

describe("changeOwnPassword", () => {
  it.effect("needs the current password; the calling session carries on, the others end", () =>
    Effect.gen(function* () {
      const ada = yield* actorWith("ada", ["team.read"])
      const other = yield* logInAs("ada")
      const wrong = yield* Effect.flip(
        changeOwnPassword(
          ada.principal,
          { currentPassword: Redacted.make("nope nope"), newPassword: fresh },
          client
        )
      )
      assert.instanceOf(wrong, WrongPassword)
      assert.isTrue(yield* signedIn(other.token), "a wrong password changes nothing")
      yield* changeOwnPassword(
        ada.principal,
        { currentPassword: Redacted.make(password), newPassword: fresh },
        client
      )
      assert.isTrue(yield* signedIn(ada.token))
      assert.isFalse(yield* signedIn(other.token))
      assert.strictEqual(
        (yield* Effect.flip(logInAs("ada")))._tag,
        "InvalidCredentials",
        "the old password is gone"
      )
    }).pipe(provideRoster())
  )

  it.effect("is for members only, and throttled like logins", () =>
    Effect.gen(function* () {
      assertForbidden(
        yield* Effect.flip(
          changeOwnPassword(master, { currentPassword: Redacted.make(password), newPassword: fresh }, client)
        ),
        "no_password"
      )
      const ada = yield* actorWith("ada", ["team.read"])
      const guess = (secret: string) =>
        Effect.flip(
          changeOwnPassword(
            ada.principal,
            { currentPassword: Redacted.make(secret), newPassword: fresh },
            client
          )
        )
      assert.instanceOf(yield* guess("guess one"), WrongPassword)
      assert.instanceOf(yield* guess("guess two"), WrongPassword)
      assert.instanceOf(
        yield* guess(password),
        RateLimited,
        "the right password too, once the limit is reached"
      )
    }).pipe(provideRoster({ throttle: { maxFailuresPerAccount: 2 } }))
  )
})

describe("setMemberPassword", () => {
  it.effect("ends every session of the member; needs the permission and no more privileged a member", () =>
    Effect.gen(function* () {
      const ada = yield* actorWith("ada", ["team.read"])
      yield* setMemberPassword(master, ada.member.id, { newPassword: fresh })
      assert.isFalse(yield* signedIn(ada.token))
      assertNotFound(
        yield* Effect.flip(setMemberPassword(master, MemberId.make("nobody"), { newPassword: fresh })),
        "member",
        "nobody"
      )
      const admin = yield* actorWith("admin", ["team.read", "admin.accounts.write"])
      const boss = yield* actorWith("boss", ["team.read", "team.members.write", "admin.accounts.write"])
      assertForbidden(
        yield* Effect.flip(setMemberPassword(admin.principal, boss.member.id, { newPassword: fresh })),
        "role_exceeds_own"
      )
      assertMissingPermission(
        yield* Effect.flip(setMemberPassword(ada.principal, admin.member.id, { newPassword: fresh })),
        "admin.accounts.write"
      )
    }).pipe(provideRoster())
  )
})

describe("listAuditEvents", () => {
  it.effect("needs audit.read, and pages with the default limit of 50", () =>
    Effect.gen(function* () {
      const reader = yield* actorWith("reader", ["team.read"])
      assertMissingPermission(yield* Effect.flip(listAuditEvents(reader.principal)), "audit.read")
      const auditor = yield* actorWith("auditor", ["audit.read"])
      const page = yield* listAuditEvents(auditor.principal)
      assert.isAbove(page.items.length, 0)
      assert.isAtMost(page.items.length, 50)
      const one = yield* listAuditEvents(auditor.principal, { limit: 1 })
      assert.lengthOf(one.items, 1)
      assert.isTrue(Option.isSome(one.next))
    }).pipe(provideRoster())
  )
})
