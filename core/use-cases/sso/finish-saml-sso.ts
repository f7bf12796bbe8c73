import { Effect, type Redacted } from "effect"
import { SsoRefused } from "../../model/sso-errors.ts"
import { isConsolePath } from "../../model/sso-login.ts"
import { completeSso } from "../../steps/sso/complete-sso.ts"
import { takeLogin, usableConnection } from "../../steps/sso/sso-login-taken.ts"

/**
 * Completes a SAML sign-in whose response was accepted (`acceptSamlReply`): the browser, sent back
 * to Roster, brings the cookie the sign-in was bound to; the sign-in is taken once.
 */
export const finishSamlSso = Effect.fnUntraced(function* (input: {
  readonly state: Redacted.Redacted<string>
  readonly binding: Redacted.Redacted<string> | undefined
}) {
  const login = yield* takeLogin(input.state, input.binding)
  const outcome = yield* Effect.gen(function* () {
    if (login.proven === null) return yield* new SsoRefused({ reason: "state" })
    const connection = yield* usableConnection(login)
    return yield* completeSso(connection, login.proven, isConsolePath(login.returnTo))
  }).pipe(Effect.result)
  return { returnTo: login.returnTo, outcome }
})
