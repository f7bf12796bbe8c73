import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import {
  confirmTotp,
  enrolTotp,
  InvalidCredentials,
  logIn,
  MemberStore,
  MfaInvalid,
  MfaStore,
  NotFound,
  OrganizationStore,
  regenerateRecoveryCodes
} from "../../core/index.ts"
import { actorWith, password, provideRoster, refusal } from "../support/roster.ts"
import { memberWithTotp, totpCodeNow } from "../support/totp.ts"

const client = "192.0.2.47"
const proof = { password: Redacted.make(password) }
const provide = provideRoster({ secretsKeys: ["unit-test-secrets-key-long-enough-0004"] })

describe("a second factor changed by another request meanwhile", () => {
  it.effect("a confirmation whose secret was enrolled again meanwhile turns nothing on", () =>
    Effect.gen(function* () {
      const { principal, member } = yield* actorWith("ada", ["team.read"])
      const { secret } = yield* enrolTotp(principal, proof, client)
      const refused = yield* refusal(
        confirmTotp(principal, { code: yield* totpCodeNow(Redacted.value(secret)) }).pipe(
          Effect.updateService(MfaStore, (store) => ({ ...store, confirm: () => Effect.succeed(false) }))
        )
      )
      assert.instanceOf(refused, MfaInvalid)
      const record = yield* (yield* MfaStore).find(member.id)
      assert.isTrue(Option.isSome(record) && record.value.secret === null, "TOTP is still off")
    }).pipe(provide)
  )

  it.effect("new recovery codes for a factor removed meanwhile are none", () =>
    Effect.gen(function* () {
      const { principal, member, secret } = yield* memberWithTotp("ada", client)
      const refused = yield* refusal(
        regenerateRecoveryCodes(principal, { ...proof, code: yield* totpCodeNow(secret) }, client).pipe(
          Effect.updateService(MfaStore, (store) => ({
            ...store,
            replaceRecoveryCodes: () => Effect.succeed(false)
          }))
        )
      )
      assert.deepStrictEqual(
        { ...(refused as object) },
        { ...new NotFound({ entity: "totp", id: member.id }) }
      )
    }).pipe(provide)
  )
})

describe("a login whose account changed after its password was checked", () => {
  const logInAda = logIn({ username: "ada", password: Redacted.make(password), client })

  it.effect("signs nobody in when the membership went meanwhile", () =>
    Effect.gen(function* () {
      yield* actorWith("ada", ["team.read"])
      const refused = yield* refusal(
        logInAda.pipe(
          Effect.updateService(MemberStore, (store) => ({ ...store, findById: () => Effect.succeedNone }))
        )
      )
      assert.instanceOf(refused, InvalidCredentials)
    }).pipe(provide)
  )

  it.effect("signs nobody in when the organisation went meanwhile", () =>
    Effect.gen(function* () {
      yield* actorWith("ada", ["team.read"])
      const refused = yield* refusal(
        logInAda.pipe(
          Effect.updateService(OrganizationStore, (store) => ({
            ...store,
            findById: () => Effect.succeedNone
          }))
        )
      )
      assert.instanceOf(refused, InvalidCredentials)
    }).pipe(provide)
  )
})
