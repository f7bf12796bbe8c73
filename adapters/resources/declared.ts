import { Layer } from "effect"
import { accountTokenStoreLayer, accountTokens } from "./account-tokens.ts"
import { apiKeyStoreLayer, apiKeys } from "./api-keys.ts"
import { deliveryStoreLayer } from "./delivery-store.ts"
import { idempotencyKeys, idempotencyStoreLayer } from "./idempotency-keys.ts"
import { invitationStoreLayer, invitations } from "./invitations.ts"
import { mfaFactors, mfaStoreLayer } from "./mfa-factors.ts"
import { organizationStoreLayer, organizations } from "./organizations.ts"
import { passkeyChallenges, passkeyStoreLayer, passkeys } from "./passkeys.ts"
import { paymentEvents, paymentInboxLayer } from "./payment-inbox.ts"
import { productPermissionStoreLayer, productPermissions } from "./product-permissions.ts"
import { groupProfiles, provisioningStoreLayer, userProfiles } from "./provisioning-profiles.ts"
import type { Resource } from "./resource.ts"
import { scimTokenStoreLayer, scimTokens } from "./scim-tokens.ts"
import { sealedSecretsLayer } from "./sealed-secrets.ts"
import { sessionStoreLayer, sessions } from "./sessions.ts"
import { signingKeyStoreLayer, signingKeys } from "./signing-keys.ts"
import { ssoConnectionStoreLayer, ssoConnections } from "./sso-connections.ts"
import { domainStoreLayer, ssoDomains } from "./sso-domains.ts"
import { spentAssertions, ssoIdentities, ssoLoginStoreLayer, ssoLogins } from "./sso-logins.ts"
import { subscriptionStoreLayer, subscriptions } from "./subscriptions.ts"
import { deliveries, webhooks } from "./webhook-records.ts"
import { webhookStoreLayer } from "./webhook-store.ts"

/**
 * Every resource that is a declaration, and its store: what spans them (MongoDB's relay at start,
 * SQLite's move of earlier tables) reads this list, and a kit opens no resource that is not in it,
 * so a new one is added here or its store fails at once (CI checks every `resource(…)` is).
 */
export const declaredResources: ReadonlyArray<Resource<object>> = [
  accountTokens,
  apiKeys,
  invitations,
  mfaFactors,
  scimTokens,
  webhooks,
  deliveries,
  ssoDomains,
  ssoConnections,
  ssoLogins,
  ssoIdentities,
  spentAssertions,
  passkeys,
  passkeyChallenges,
  signingKeys,
  productPermissions,
  paymentEvents,
  subscriptions,
  idempotencyKeys,
  organizations,
  userProfiles,
  groupProfiles,
  sessions
] as unknown as ReadonlyArray<Resource<object>>

const names = new Set(declaredResources.map((declared) => declared.name))

/** Whether a resource is in the list of declared ones (by its table or collection). */
export const isDeclared = (declared: { readonly name: string }) => names.has(declared.name)

/**
 * The stores of every declared resource, on whichever kit is provided (memory, SQLite, MongoDB),
 * and what spans them (their sealed secrets).
 */
export const declaredStores = Layer.mergeAll(
  apiKeyStoreLayer,
  scimTokenStoreLayer,
  invitationStoreLayer,
  accountTokenStoreLayer,
  mfaStoreLayer,
  webhookStoreLayer,
  deliveryStoreLayer,
  domainStoreLayer,
  ssoConnectionStoreLayer,
  ssoLoginStoreLayer,
  passkeyStoreLayer,
  signingKeyStoreLayer,
  productPermissionStoreLayer,
  paymentInboxLayer,
  subscriptionStoreLayer,
  idempotencyStoreLayer,
  organizationStoreLayer,
  provisioningStoreLayer,
  sessionStoreLayer,
  sealedSecretsLayer
)
