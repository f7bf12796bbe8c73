import { Effect, Option } from "effect"
import { changesBetween } from "../../model/audit.ts"
import { NotFound } from "../../model/errors.ts"
import type { SsoConnectionId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { connectionAuditFields } from "../../model/sso-connection.ts"
import { SsoConnectionStore } from "../../ports/sso-connection-store.ts"
import { auditActorOf, newAuditEntry } from "../../steps/audit/new-audit-entry.ts"
import { auditedConnection, connectionView } from "../../steps/sso/connection-view.ts"
import { findConnection } from "../../steps/sso/get-sso-connection.ts"

/** Deletes a connection and the identities linked through it: nobody signs in through it again. */
export const deleteSsoConnection = Effect.fnUntraced(function* (actor: Principal, id: SsoConnectionId) {
  const connection = yield* findConnection(actor, id)
  const entry = yield* newAuditEntry(
    auditActorOf(actor),
    "sso.connection.deleted",
    { type: "sso_connection", id },
    changesBetween(auditedConnection(connection), null, ["kind", ...connectionAuditFields])
  )
  const removed = yield* (yield* SsoConnectionStore).remove(id, entry)
  if (Option.isNone(removed)) return yield* new NotFound({ entity: "sso_connection", id })
  return yield* connectionView(removed.value)
})
