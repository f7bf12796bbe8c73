import { Effect } from "effect"
import type { SsoConnectionId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { connectionView } from "../../steps/sso/connection-view.ts"
import { findConnection } from "../../steps/sso/get-sso-connection.ts"

/** One of the organisation's connections, with the values to copy into its IdP. */
export const readSsoConnection = Effect.fnUntraced(function* (actor: Principal, id: SsoConnectionId) {
  return yield* connectionView(yield* findConnection(actor, id))
})
