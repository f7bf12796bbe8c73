import { Effect } from "effect"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import { ScimTokenStore } from "../../ports/scim-token-store.ts"

/** The organisation's SCIM tokens, oldest first: names and dates, never the tokens. */
export const listScimTokens = Effect.fnUntraced(function* (actor: Principal) {
  yield* requirePermission(actor, "organization.write")
  return yield* (yield* ScimTokenStore).list
})
