import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { recordingAccountMail } from "../../adapters/memory/index.ts"
import {
  AccountMail,
  addMember,
  type Forbidden,
  MemberId,
  memberMfaStatus,
  type NotFound,
  signInMethods
} from "../../core/index.ts"
import { actorWith, master, memberInput, provideRoster, refusal, roleWith } from "../support/roster.ts"
import { memberWithTotp } from "../support/totp.ts"

/** Mail that delivers only the links `delivers` names. */
const mailing = (delivers: { password_reset: boolean; email_verification: boolean }) =>
  Layer.succeed(
    AccountMail,
    AccountMail.of({
      delivers: { ...delivers, email_change: false },
      send: () => Effect.void,
      tell: () => Effect.void
    })
  )

const withSecrets = provideRoster({ secretsKeys: ["unit tests' secrets key, long enough"] })

describe("a member's second factor, as an administrator reads it", () => {
  it.effect("tells whether TOTP is on, to who may clear it", () =>
    Effect.gen(function* () {
      const ada = yield* memberWithTotp("ada", "192.0.2.3")
      const bob = yield* actorWith("bob", [])
      assert.deepStrictEqual(yield* memberMfaStatus(master, ada.member.id), { totp: true })
      assert.deepStrictEqual(yield* memberMfaStatus(master, bob.member.id), { totp: false })
      const { principal: admin } = yield* actorWith("admin", ["admin.accounts.write", "team.read"])
      assert.deepStrictEqual(yield* memberMfaStatus(admin, ada.member.id), { totp: true })
      const refused = (yield* refusal(memberMfaStatus(bob.principal, ada.member.id))) as Forbidden
      assert.deepStrictEqual(
        [refused.reason, refused.permission],
        ["missing_permission", "admin.accounts.write"]
      )
      const unknown = (yield* refusal(memberMfaStatus(master, MemberId.make("member-none")))) as NotFound
      assert.deepStrictEqual(
        [unknown._tag, unknown.entity, unknown.id],
        ["NotFound", "member", "member-none"]
      )
    }).pipe(withSecrets)
  )

  it.effect("is not told of a member above the reader's ceiling", () =>
    Effect.gen(function* () {
      const { principal: admin } = yield* actorWith("admin", ["admin.accounts.write"])
      const above = yield* roleWith("above", ["admin.accounts.write", "billing.subscribe"])
      const carol = yield* addMember(master, memberInput("carol", above.id))
      const refused = (yield* refusal(memberMfaStatus(admin, carol.id))) as Forbidden
      assert.strictEqual(refused.reason, "role_exceeds_own")
    }).pipe(withSecrets)
  )
})

/** What a deployment offers by mail, of all the ways in it offers. */
const byMail = Effect.map(signInMethods, ({ passwordReset, emailVerification }) => ({
  passwordReset,
  emailVerification
}))

describe("the ways in a deployment offers", () => {
  it.effect("are none by mail where it mails nothing", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(yield* byMail, { passwordReset: false, emailVerification: false })
    }).pipe(provideRoster())
  )

  it.effect("are each link it mails", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(yield* byMail, { passwordReset: true, emailVerification: true })
      for (const delivers of [
        { password_reset: true, email_verification: false },
        { password_reset: false, email_verification: true }
      ]) {
        assert.deepStrictEqual(yield* byMail.pipe(Effect.provide(mailing(delivers))), {
          passwordReset: delivers.password_reset,
          emailVerification: delivers.email_verification
        })
      }
    }).pipe(provideRoster({ accountMail: recordingAccountMail().layer }))
  )
})
