import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { AuditCursor, listAuditEvents } from "../../../core/index.ts"
import { RosterApi } from "../api/roster-api.ts"
import { asCaller } from "./as-caller.ts"
import { pageResponse } from "./page-response.ts"

export const AuditHandlers = HttpApiBuilder.group(RosterApi, "audit", (handlers) =>
  handlers.handle("listEvents", ({ query: { cursor, ...filter }, request }) =>
    asCaller((actor) =>
      listAuditEvents(actor, cursor === undefined ? filter : { ...filter, after: cursor })
    ).pipe(Effect.map(pageResponse(AuditCursor, request)))
  )
)
