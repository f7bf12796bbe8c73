import { Layer } from "effect"
import { accountTokenStoreLayer } from "./account-tokens.ts"
import { apiKeyStoreLayer } from "./api-keys.ts"
import { deliveryStoreLayer } from "./delivery-store.ts"
import { invitationStoreLayer } from "./invitations.ts"
import { mfaStoreLayer } from "./mfa-factors.ts"
import { scimTokenStoreLayer } from "./scim-tokens.ts"
import { sealedSecretsLayer } from "./sealed-secrets.ts"
import { webhookStoreLayer } from "./webhook-store.ts"

/**
 * The stores of every resource that is a declaration, on whichever kit is provided (memory,
 * SQLite, MongoDB), and what spans them (their sealed secrets).
 */
export const declaredStores = Layer.mergeAll(
  apiKeyStoreLayer,
  scimTokenStoreLayer,
  invitationStoreLayer,
  accountTokenStoreLayer,
  mfaStoreLayer,
  webhookStoreLayer,
  deliveryStoreLayer,
  sealedSecretsLayer
)
