import { DateTime, Duration, Effect, Option } from "effect"
import type { OrganizationId } from "../../model/ids.ts"
import { CurrentServiceUrls } from "../../model/request.ts"
import type { SsoConnectionRecord } from "../../model/sso-connection.ts"
import { domainOfEmail } from "../../model/sso-domain.ts"
import { ReturnRefused, SsoRefused } from "../../model/sso-errors.ts"
import {
  consoleReturn,
  returnAllowed,
  SsoLogin,
  type StartSsoInput,
  ssoLoginSeconds
} from "../../model/sso-login.ts"
import { AuthSettings } from "../../ports/auth-settings.ts"
import { DomainStore } from "../../ports/domain-store.ts"
import { IdentityProviders } from "../../ports/identity-providers.ts"
import { OrganizationStore } from "../../ports/organization-store.ts"
import { SsoConnectionStore } from "../../ports/sso-connection-store.ts"
import { SsoLoginStore } from "../../ports/sso-login-store.ts"
import { TokenIssuer } from "../../ports/token-issuer.ts"
import { countSignInStart } from "../../steps/auth/count-sign-in-start.ts"
import { connectionSecret } from "../../steps/sso/connection-view.ts"

/** The organisation a sign-in names: by slug or id, or as the one that verified the e-mail's domain. */
const organizationNamed = Effect.fnUntraced(function* (input: StartSsoInput) {
  if (input.organization !== undefined) {
    const found = yield* (yield* OrganizationStore).findByRef(input.organization)
    return Option.map(found, ({ id }) => id)
  }
  if (input.email === undefined || !input.email.includes("@")) return Option.none<OrganizationId>()
  const domain = yield* (yield* DomainStore).findVerified(domainOfEmail(input.email))
  return Option.map(domain, ({ organizationId }) => organizationId)
})

/** The connection a sign-in goes through: the one named, else the organisation's oldest enabled one. */
const chosenConnection = Effect.fnUntraced(function* (input: StartSsoInput) {
  const connections = yield* SsoConnectionStore
  if (input.connection !== undefined) {
    const named = yield* connections.findAnywhere(input.connection)
    return Option.filter(named, (connection) => connection.status === "enabled")
  }
  const organization = yield* organizationNamed(input)
  if (Option.isNone(organization)) return Option.none<SsoConnectionRecord>()
  return Option.fromNullishOr((yield* connections.enabledOf(organization.value))[0])
})

/**
 * Starts a single sign-on: where to send the browser (the provider's sign-in, bound to a new
 * `state`), and the secret the browser keeps in a cookie, without which the provider's answer
 * completes nothing. Each start writes its state: `client` may start only so many per window
 * (429), counted before anything else. `returnTo` is checked next: a refusal after it is told there.
 */
export const startSso = Effect.fnUntraced(function* (input: StartSsoInput, client: string) {
  yield* countSignInStart("sso_start", client)
  const returnTo = input.returnTo ?? consoleReturn
  // Stryker disable next-line ArrayDeclaration: settings without return URLs allow none; a made-up entry is no URL a browser returns to
  if (!returnAllowed(returnTo, (yield* AuthSettings).ssoReturnUrls ?? [])) return yield* new ReturnRefused()
  const connection = yield* chosenConnection(input)
  if (Option.isNone(connection)) return yield* new SsoRefused({ reason: "connection" })
  const tokens = yield* TokenIssuer
  const state = yield* tokens.issue("sso_state")
  const binding = yield* tokens.issue("sso_binding")
  const redirectTo = yield* (yield* IdentityProviders).signInUrl(
    connection.value,
    yield* connectionSecret(connection.value),
    state.token,
    yield* CurrentServiceUrls
  )
  const now = yield* DateTime.now
  yield* (yield* SsoLoginStore).begin(
    new SsoLogin({
      stateHash: state.hash,
      bindingHash: binding.hash,
      connectionId: connection.value.id,
      organizationId: connection.value.organizationId,
      returnTo,
      createdAt: now,
      expiresAt: DateTime.addDuration(now, Duration.seconds(ssoLoginSeconds)),
      proven: null
    })
  )
  return { redirectTo, binding: binding.token, returnTo }
})
