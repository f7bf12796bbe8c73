import { Effect, Redacted, Result } from "effect"
import {
  acceptSamlReply,
  addDomain,
  createSsoConnection,
  finishOidcSso,
  finishSamlSso,
  type StartSsoInput,
  startSso,
  verifyDomain
} from "../../core/index.ts"
import { master } from "./roster.ts"
import { acme, clientSecret, type ProvenBy } from "./sso-unit.ts"

/** A sign-in started: its `state` (read from where the browser is sent) and the browser's cookie. */
export interface Started {
  readonly state: string
  readonly binding: string
  readonly returnTo: string
  readonly redirectTo: string
}

export const start = (input: StartSsoInput) =>
  Effect.map(
    startSso(input, "192.0.2.1"),
    (started): Started => ({
      state: new URL(started.redirectTo).searchParams.get("state") ?? "",
      binding: Redacted.value(started.binding),
      returnTo: started.returnTo,
      redirectTo: started.redirectTo
    })
  )

/** The provider's OIDC callback for `started`, proving `identity`, from the browser holding `binding` (none: `null`). */
export const oidcCallback = (
  started: Started,
  identity: { readonly sub?: string; readonly email?: string; readonly error?: string },
  binding: string | null = started.binding
) =>
  finishOidcSso({
    state: Redacted.make(started.state),
    query: new URLSearchParams({ state: started.state, ...identity }).toString(),
    binding: binding === null ? undefined : Redacted.make(binding)
  })

/** The IdP's SAML response for `started`, posted to the ACS. */
export const samlPost = (started: Started, proven: ProvenBy, state = started.state) =>
  acceptSamlReply({
    relayState: Redacted.make(started.state),
    samlResponse: JSON.stringify({ state, ...proven })
  })

/** The browser, back at Roster with its cookie, completing the SAML sign-in. */
export const samlReturn = (started: Started, binding: string | null = started.binding) =>
  finishSamlSso({
    state: Redacted.make(started.state),
    binding: binding === null ? undefined : Redacted.make(binding)
  })

/** What a finished sign-in's outcome succeeded with; a failed one fails with its error. */
export const outcomeOf = <A, E>(finished: { readonly outcome: Result.Result<A, E> }) =>
  Result.isSuccess(finished.outcome)
    ? Effect.succeed(finished.outcome.success)
    : Effect.fail(finished.outcome.failure)

/**
 * Acme (see `acme`) holding `acme.example` verified, with an OIDC connection and a SAML one made
 * by the operator.
 */
export const acmeSso = Effect.gen(function* () {
  const world = yield* acme
  const { inAcme } = world
  const domain = yield* inAcme(addDomain(master, { domain: "acme.example" }))
  yield* inAcme(verifyDomain(master, domain.id, { verified: true }))
  const oidc = yield* inAcme(
    createSsoConnection(master, {
      kind: "oidc",
      issuer: "https://idp.example",
      clientId: "roster",
      clientSecret: Redacted.make(clientSecret)
    })
  )
  const saml = yield* inAcme(
    createSsoConnection(master, {
      kind: "saml",
      idpMetadataXml: JSON.stringify({
        entityId: "https://saml.example/idp",
        ssoUrl: "https://saml.example/sso",
        certificates: ["MIIcert"]
      })
    })
  )
  return { ...world, domain, oidc, saml }
})
