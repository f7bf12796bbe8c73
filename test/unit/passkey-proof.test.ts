import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import {
  acceptInvitation,
  authenticate,
  CurrentOrganization,
  createOrganization,
  inviteMember,
  MfaInvalid,
  MfaStore,
  MissingField,
  PasskeyStore,
  passkeyRegistrationOptions,
  registerPasskey,
  WrongPassword
} from "../../core/index.ts"
import { actorWith, master, password, roleWith } from "../support/roster.ts"
import { memberWithTotp, totpCodeNow } from "../support/totp.ts"
import { provideWebAuthn } from "../support/webauthn-unit.ts"

const client = "192.0.2.61"
const provide = provideWebAuthn({ secretsKeys: ["unit-test-secrets-key-long-enough-0001"] })
const withPassword = { password: Redacted.make(password) }

const passkeysOf = (accountId: Parameters<PasskeyStore["Service"]["ofAccount"]>[0]) =>
  PasskeyStore.use((store) => store.ofAccount(accountId))

describe("registering a passkey while the account has TOTP", () => {
  it.effect(
    "needs a code of it besides the password, as replacing TOTP does, and spends a recovery code",
    () =>
      Effect.gen(function* () {
        const ada = yield* memberWithTotp("ada", client)
        // Past the five minutes a new session proves its holder for.
        yield* TestClock.adjust("6 minutes")
        const options = (input: Parameters<typeof passkeyRegistrationOptions>[1]) =>
          Effect.flip(passkeyRegistrationOptions(ada.principal, input, client))
        assert.instanceOf(yield* options(withPassword), MfaInvalid, "the password alone")
        assert.instanceOf(yield* options({ ...withPassword, code: "000000" }), MfaInvalid, "a wrong code")
        assert.instanceOf(
          yield* options({
            password: Redacted.make("not the password at all"),
            code: ada.recoveryCodes[0] ?? ""
          }),
          WrongPassword
        )
        assert.instanceOf(yield* options({ code: ada.recoveryCodes[0] ?? "" }), MissingField, "a code alone")
        assert.deepStrictEqual(yield* passkeysOf(ada.member.id), [])
        const record = Option.getOrThrow(yield* (yield* MfaStore).find(ada.member.id))
        assert.strictEqual(record.recoveryCodes.length, 10, "no recovery code spent by a refusal")

        const byCode = yield* passkeyRegistrationOptions(
          ada.principal,
          { ...withPassword, code: yield* totpCodeNow(ada.secret) },
          client
        )
        const added = yield* registerPasskey(ada.principal, {
          name: "Laptop",
          response: { id: "credential-of-ada-0001", challenge: byCode.challenge }
        })
        assert.strictEqual(added.name, "Laptop")

        const recovery = ada.recoveryCodes[1] ?? ""
        yield* passkeyRegistrationOptions(ada.principal, { ...withPassword, code: recovery }, client)
        assert.instanceOf(
          yield* options({ ...withPassword, code: recovery }),
          MfaInvalid,
          "a recovery code once"
        )
        const after = Option.getOrThrow(yield* (yield* MfaStore).find(ada.member.id))
        assert.strictEqual(after.recoveryCodes.length, 9)
      }).pipe(provide)
  )
})

describe("a session young enough to add a passkey without the password", () => {
  it.effect("is one a sign-in made: accepting an invitation with an old session gives one as old", () =>
    Effect.gen(function* () {
      const acme = yield* createOrganization(master, { name: "Acme", slug: "acme" })
      const inAcme = Effect.provideService(CurrentOrganization, acme.id)
      const staff = yield* inAcme(roleWith("staff", []))
      const ada = yield* memberWithTotp("ada", client)
      const invitation = yield* inAcme(inviteMember(master, { email: "ada@example.com", roleId: staff.id }))
      const signedInAt = ada.principal._tag === "Member" ? ada.principal.session?.authTime : undefined
      yield* TestClock.adjust("6 minutes")
      assert.instanceOf(
        yield* Effect.flip(passkeyRegistrationOptions(ada.principal, {}, client)),
        MissingField
      )

      const joined = yield* acceptInvitation(Option.some(ada.token), {
        token: Option.getOrThrow(invitation.token),
        client
      })
      const inJoined = yield* authenticate(Option.some(joined.token))
      assert.deepStrictEqual(
        inJoined._tag === "Member" ? inJoined.session?.authTime : undefined,
        signedInAt,
        "signed in when the session presented was"
      )
      const refused = yield* Effect.flip(passkeyRegistrationOptions(inJoined, {}, client))
      assert.instanceOf(refused, MissingField)
      assert.deepStrictEqual(yield* passkeysOf(ada.member.id), [])

      // A sign-in does make a young session.
      const { principal: bob } = yield* actorWith("bob", [])
      yield* passkeyRegistrationOptions(bob, {}, client)
    }).pipe(provide)
  )
})
