import { Effect, Option } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { SsoConnectionId } from "../../model/ids.ts"
import { CurrentServiceUrls } from "../../model/request.ts"
import { IdentityProviders } from "../../ports/identity-providers.ts"
import { SsoConnectionStore } from "../../ports/sso-connection-store.ts"
import { connectionSecret } from "../../steps/sso/connection-view.ts"

/** Roster's SP metadata for a SAML connection: public, what the IdP's administrator imports. */
export const serviceProviderMetadata = Effect.fnUntraced(function* (id: SsoConnectionId) {
  const found = yield* (yield* SsoConnectionStore).findAnywhere(id)
  if (Option.isNone(found) || found.value.saml === null)
    return yield* new NotFound({ entity: "sso_connection", id })
  return yield* (yield* IdentityProviders).serviceProviderMetadata(
    found.value,
    yield* connectionSecret(found.value),
    yield* CurrentServiceUrls
  )
})
