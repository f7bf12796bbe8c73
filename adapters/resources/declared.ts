import { accountTokens } from "./account-tokens.ts"
import { apiKeys } from "./api-keys.ts"
import { invitations } from "./invitations.ts"
import { mfaFactors } from "./mfa-factors.ts"
import type { Resource } from "./resource.ts"
import { scimTokens } from "./scim-tokens.ts"
import { deliveries, webhooks } from "./webhook-records.ts"

/**
 * Every resource that is a declaration: what spans them (MongoDB's relay at start, SQLite's move of
 * earlier tables) reads this list, and a kit opens no resource that is not in it, so a new one is
 * added here or its store fails at once.
 */
export const declaredResources: ReadonlyArray<Resource<object>> = [
  accountTokens,
  apiKeys,
  invitations,
  mfaFactors,
  scimTokens,
  webhooks,
  deliveries
] as unknown as ReadonlyArray<Resource<object>>

const names = new Set(declaredResources.map((declared) => declared.name))

/** Whether a resource is in the list of declared ones (by its table or collection). */
export const isDeclared = (declared: { readonly name: string }) => names.has(declared.name)
