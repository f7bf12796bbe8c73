import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import {
  acceptInvitation,
  authenticate,
  CurrentOrganization,
  createOrganization,
  inviteMember,
  logIn,
  type Principal,
  verifyMfa
} from "../../core/index.ts"
import { actorWith, logInAs, master, password, provideRoster, roleWith } from "../support/roster.ts"
import { memberWithTotp, totpCodeNow } from "../support/totp.ts"

const client = "192.0.2.9"
const withSecrets = provideRoster({ secretsKeys: ["unit-test-secrets-key-long-enough-0001"] })

/** What the session a token opens recorded of its sign-in. */
const signInOf = (token: Redacted.Redacted<string>) =>
  Effect.map(authenticate(Option.some(token)), (principal: Principal) =>
    principal._tag === "Member" ? principal.session : undefined
  )

const challengeOf = Effect.flatMap(
  logIn({ username: "ada", password: Redacted.make(password), client }),
  (answer) =>
    "challenge" in answer ? Effect.succeed(answer.challenge) : Effect.die(new Error("expected a challenge"))
)

describe("what a session records of its sign-in", () => {
  it.effect("a password: pwd, proved when the session was made", () =>
    Effect.gen(function* () {
      yield* actorWith("ada", ["team.read"])
      yield* TestClock.adjust(Duration.minutes(3))
      const { token } = yield* logInAs("ada")
      const session = yield* signInOf(token)
      assert.deepStrictEqual(session?.amr, ["pwd"])
      assert.isTrue(DateTime.Equivalence(session?.authTime ?? DateTime.makeUnsafe(0), yield* DateTime.now))
    }).pipe(withSecrets)
  )

  it.effect("a password and a TOTP code, or a recovery code: pwd, otp and mfa", () =>
    Effect.gen(function* () {
      const ada = yield* memberWithTotp("ada", client)
      const byCode = yield* verifyMfa({
        challenge: yield* challengeOf,
        code: yield* totpCodeNow(ada.secret),
        client
      })
      assert.deepStrictEqual((yield* signInOf(byCode.token))?.amr, ["pwd", "otp", "mfa"])
      const byRecovery = yield* verifyMfa({
        challenge: yield* challengeOf,
        recoveryCode: ada.recoveryCodes[0] ?? "",
        client
      })
      assert.deepStrictEqual((yield* signInOf(byRecovery.token))?.amr, ["pwd", "otp", "mfa"])
    }).pipe(withSecrets)
  )

  it.effect("an invitation accepted with a session keeps that session's proof and its time", () =>
    Effect.gen(function* () {
      const ada = yield* memberWithTotp("ada", client)
      const signedIn = yield* verifyMfa({
        challenge: yield* challengeOf,
        code: yield* totpCodeNow(ada.secret),
        client
      })
      const before = yield* signInOf(signedIn.token)
      const acme = yield* createOrganization(master, { name: "Acme", slug: "acme" })
      const inAcme = Effect.provideService(CurrentOrganization, acme.id)
      const staff = yield* inAcme(roleWith("staff", []))
      const invitation = yield* inAcme(inviteMember(master, { email: "ada@example.com", roleId: staff.id }))
      yield* TestClock.adjust(Duration.minutes(2))
      const joined = yield* acceptInvitation(Option.some(signedIn.token), {
        token: Option.getOrThrow(invitation.token),
        client
      })
      const after = yield* signInOf(joined.token)
      assert.deepStrictEqual(after?.amr, ["pwd", "otp", "mfa"])
      assert.isTrue(
        DateTime.Equivalence(
          after?.authTime ?? DateTime.makeUnsafe(0),
          before?.authTime ?? DateTime.makeUnsafe(1)
        )
      )
      assert.notStrictEqual(after?.id, before?.id, "a session of its own")
    }).pipe(withSecrets)
  )

  it.effect("an invitation accepted with the account's password: pwd", () =>
    Effect.gen(function* () {
      yield* actorWith("ada", ["team.read"])
      const acme = yield* createOrganization(master, { name: "Acme", slug: "acme" })
      const inAcme = Effect.provideService(CurrentOrganization, acme.id)
      const staff = yield* inAcme(roleWith("staff", []))
      const invitation = yield* inAcme(inviteMember(master, { email: "ada@example.com", roleId: staff.id }))
      const joined = yield* acceptInvitation(Option.none(), {
        token: Option.getOrThrow(invitation.token),
        password: Redacted.make(password),
        client
      })
      assert.deepStrictEqual((yield* signInOf(joined.token))?.amr, ["pwd"])
    }).pipe(withSecrets)
  )
})
