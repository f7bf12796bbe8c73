import { Effect, type Redacted } from "effect"
import { CurrentServiceUrls } from "../../model/request.ts"
import { isConsolePath, redirectUriOf } from "../../model/sso-login.ts"
import { IdentityProviders } from "../../ports/identity-providers.ts"
import { completeSso } from "../../steps/sso/complete-sso.ts"
import { connectionSecret } from "../../steps/sso/connection-view.ts"
import { takeLogin, usableConnection } from "../../steps/sso/sso-login-taken.ts"

export interface OidcCallback {
  /** The callback's `state`. */
  readonly state: Redacted.Redacted<string>
  /** The callback's query, as the provider sent it (its code, its state, or its error). */
  readonly query: string
  /** The cookie the starting browser was given; none when it sent none. */
  readonly binding: Redacted.Redacted<string> | undefined
}

/**
 * Completes an OIDC sign-in from the provider's callback: the sign-in its `state` names, taken once
 * for the browser that started it, then the code exchanged, the ID token checked (issuer, audience,
 * expiry, nonce, PKCE) and the person signed in. What follows the state's check is answered with the
 * sign-in's `returnTo`, success or refusal alike, so that the browser is sent back there.
 */
export const finishOidcSso = Effect.fnUntraced(function* (callback: OidcCallback) {
  const login = yield* takeLogin(callback.state, callback.binding)
  const outcome = yield* Effect.gen(function* () {
    const connection = yield* usableConnection(login)
    const urls = yield* CurrentServiceUrls
    const proven = yield* (yield* IdentityProviders).readReply(
      connection,
      yield* connectionSecret(connection),
      callback.state,
      { kind: "oidc", callbackUrl: `${redirectUriOf(urls)}?${callback.query}` },
      urls
    )
    return yield* completeSso(connection, proven, isConsolePath(login.returnTo))
  }).pipe(Effect.result)
  return { returnTo: login.returnTo, outcome }
})
