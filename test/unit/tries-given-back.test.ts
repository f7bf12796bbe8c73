import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import {
  acceptInvitation,
  CurrentOrganization,
  createOrganization,
  HashingBusy,
  inviteMember,
  logIn,
  PasswordHasher,
  SecretBox,
  SecretUnreadable,
  verifyMfa
} from "../../core/index.ts"
import { proveOwnPassword } from "../../core/steps/mfa/prove-own-password.ts"
import { actorWith, master, password, provideRoster, refusal, roleWith } from "../support/roster.ts"
import { memberWithTotp, totpCodeNow } from "../support/totp.ts"

const client = "192.0.2.49"
// One failure more than this and the account is throttled: every try below must be given back.
const provide = provideRoster({
  secretsKeys: ["unit-test-secrets-key-long-enough-0005"],
  throttle: { maxFailuresPerAccount: 1, maxFailuresPerClient: 50 }
})
const busy = new HashingBusy({ retryAfterSeconds: 1 })
const hasherBusy = Effect.updateService(PasswordHasher, (hasher) => ({
  ...hasher,
  verify: () => Effect.fail(busy)
}))
const thrice = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.forEach([1, 2, 3], () => refusal(effect))

describe("a guess that was never checked", () => {
  it.effect("at one's own password, the hasher busy, is given back", () =>
    Effect.gen(function* () {
      const { member } = yield* actorWith("ada", ["team.read"])
      const prove = proveOwnPassword(member.id, Redacted.make(password), client)
      assert.deepStrictEqual(yield* thrice(prove.pipe(hasherBusy)), [busy, busy, busy])
      assert.strictEqual((yield* prove).id, member.id, "not throttled")
    }).pipe(provide)
  )

  it.effect("at the password accepting an invitation, the hasher busy, is given back", () =>
    Effect.gen(function* () {
      yield* actorWith("ada", ["team.read"])
      const acme = yield* createOrganization(master, { name: "Acme", slug: "acme" })
      const inAcme = Effect.provideService(CurrentOrganization, acme.id)
      const staff = yield* inAcme(roleWith("staff", []))
      const { token } = yield* inAcme(inviteMember(master, { email: "ada@example.com", roleId: staff.id }))
      const accept = acceptInvitation(Option.none(), {
        token: Option.getOrThrow(token),
        password: Redacted.make(password),
        client
      })
      assert.deepStrictEqual(yield* thrice(accept.pipe(hasherBusy)), [busy, busy, busy])
      assert.strictEqual((yield* accept).organization.slug, "acme", "not throttled")
    }).pipe(provide)
  )

  it.effect("at the second factor, its secret unreadable, is given back", () =>
    Effect.gen(function* () {
      const { secret } = yield* memberWithTotp("ada", client)
      const login = yield* logIn({ username: "ada", password: Redacted.make(password), client })
      if (!("challenge" in login)) throw new Error("Expected a challenge")
      const code = yield* totpCodeNow(secret)
      const verify = verifyMfa({ challenge: login.challenge, code, client })
      const unreadable = Effect.updateService(SecretBox, (box) => ({
        ...box,
        open: () => Effect.fail(new SecretUnreadable())
      }))
      const refused = yield* thrice(verify.pipe(unreadable))
      assert.deepStrictEqual(refused, [
        new SecretUnreadable(),
        new SecretUnreadable(),
        new SecretUnreadable()
      ])
      assert.strictEqual((yield* verify).member.username, "ada", "not throttled")
    }).pipe(provide)
  )
})
