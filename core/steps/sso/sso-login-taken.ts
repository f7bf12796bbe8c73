import { DateTime, Effect, Option, type Redacted } from "effect"
import type { SsoConnectionRecord } from "../../model/sso-connection.ts"
import { SsoRefused } from "../../model/sso-errors.ts"
import type { SsoLogin } from "../../model/sso-login.ts"
import { SsoConnectionStore } from "../../ports/sso-connection-store.ts"
import { SsoLoginStore } from "../../ports/sso-login-store.ts"
import { TokenIssuer } from "../../ports/token-issuer.ts"

const refusedState = () => new SsoRefused({ reason: "state" })

/** The sign-in a `state` names, while it may be answered: known, not expired. */
export const openLogin = Effect.fnUntraced(function* (state: Redacted.Redacted<string>) {
  const stateHash = yield* (yield* TokenIssuer).hashOf(state)
  const login = yield* (yield* SsoLoginStore).find(stateHash)
  if (Option.isNone(login) || DateTime.isLessThanOrEqualTo(login.value.expiresAt, yield* DateTime.now)) {
    return yield* refusedState()
  }
  return login.value
})

/**
 * Takes the sign-in a `state` names, once, for the browser that started it: the cookie it was given
 * (`binding`) must be the one the sign-in was bound to. Anyone else's browser completes nothing.
 */
export const takeLogin = Effect.fnUntraced(function* (
  state: Redacted.Redacted<string>,
  binding: Redacted.Redacted<string> | undefined
) {
  const login = yield* openLogin(state)
  const tokens = yield* TokenIssuer
  if (binding === undefined || !(yield* tokens.sameHash(yield* tokens.hashOf(binding), login.bindingHash))) {
    return yield* refusedState()
  }
  const taken = yield* (yield* SsoLoginStore).take(login.stateHash)
  if (Option.isNone(taken)) return yield* refusedState()
  return taken.value
})

/** The connection a sign-in goes through, while it signs people in to the sign-in's organisation. */
export const usableConnection = Effect.fnUntraced(function* (login: SsoLogin) {
  const found = yield* (yield* SsoConnectionStore).findAnywhere(login.connectionId)
  const usable = Option.filter(
    found,
    (connection: SsoConnectionRecord) =>
      connection.status === "enabled" && connection.organizationId === login.organizationId
  )
  if (Option.isNone(usable)) return yield* new SsoRefused({ reason: "connection" })
  return usable.value
})
