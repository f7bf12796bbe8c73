import { DateTime, Effect, Option, type Redacted } from "effect"
import { CurrentServiceUrls } from "../../model/request.ts"
import { SsoRefused } from "../../model/sso-errors.ts"
import { SpentAssertion } from "../../model/sso-login.ts"
import { IdentityProviders } from "../../ports/identity-providers.ts"
import { SsoLoginStore } from "../../ports/sso-login-store.ts"
import { connectionSecret } from "../../steps/sso/connection-view.ts"
import { openLogin, usableConnection } from "../../steps/sso/sso-login-taken.ts"

/**
 * Reads a SAML response posted to the ACS: a cross-site form post, so it carries no cookie of the
 * browser and trusts only the signed response. The sign-in its `RelayState` names must be open and
 * unproven; the response must be signed by the IdP's pinned certificate, for Roster's audience,
 * within its time, its assertion never accepted before, and answer the sign-in's AuthnRequest (an
 * assertion that answers none is spent before it is refused). What it proved
 * is kept with the sign-in, which the browser completes with its cookie (`finishSamlSso`).
 */
export const acceptSamlReply = Effect.fnUntraced(function* (input: {
  readonly relayState: Redacted.Redacted<string>
  readonly samlResponse: string
}) {
  const login = yield* openLogin(input.relayState)
  const outcome = yield* Effect.gen(function* () {
    if (login.proven !== null) return yield* new SsoRefused({ reason: "state" })
    const connection = yield* usableConnection(login)
    const answer = yield* (yield* IdentityProviders).readReply(
      connection,
      yield* connectionSecret(connection),
      input.relayState,
      { kind: "saml", samlResponse: input.samlResponse },
      yield* CurrentServiceUrls
    )
    const logins = yield* SsoLoginStore
    if (answer.assertion !== undefined) {
      const fresh = yield* logins.spend(
        new SpentAssertion({
          connectionId: connection.id,
          assertionId: answer.assertion.id,
          expiresAt: DateTime.makeUnsafe(answer.assertion.expiresAt)
        })
      )
      if (!fresh) return yield* new SsoRefused({ reason: "replayed" })
      // Spent all the same: an assertion Roster never asked for is not kept to answer a later request.
      if (!answer.assertion.answersRequest) return yield* new SsoRefused({ reason: "unsolicited" })
    }
    const proven = yield* logins.prove(login.stateHash, { subject: answer.subject, email: answer.email })
    if (Option.isNone(proven)) return yield* new SsoRefused({ reason: "state" })
  }).pipe(Effect.result)
  return { returnTo: login.returnTo, outcome }
})
