import { DateTime, Effect, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { generateSync } from "otplib"
import { confirmTotp, enrolTotp, type Principal } from "../../core/index.ts"
import { actorWith, password } from "./roster.ts"

/** The authenticator app's code for `secret` at the test clock's now, `offset` steps away. */
export const totpCodeNow = (secret: string, offset = 0) =>
  Effect.map(DateTime.now, (now) =>
    generateSync({ secret, epoch: Math.floor(now.epochMilliseconds / 1000) + offset * 30 })
  )

/**
 * A signed-in member with TOTP on, the clock a step later (so the next code is of a step not taken):
 * their principal, member and session token, the app's secret and their recovery codes.
 */
export const memberWithTotp = (username: string, client: string) =>
  Effect.gen(function* () {
    const { principal, member, token } = yield* actorWith(username, ["team.read"])
    const { secret } = yield* enrolTotp(principal as Principal, { password: Redacted.make(password) }, client)
    const { recoveryCodes } = yield* confirmTotp(principal, {
      code: yield* totpCodeNow(Redacted.value(secret))
    })
    yield* TestClock.adjust("30 seconds")
    return {
      principal,
      member,
      token,
      secret: Redacted.value(secret),
      recoveryCodes: recoveryCodes.map(Redacted.value)
    }
  })
