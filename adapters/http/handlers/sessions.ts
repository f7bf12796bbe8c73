import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { endOwnSession, listOwnSessions, type Session } from "../../../core/index.ts"
import { RosterApi } from "../api/roster-api.ts"
import type { SessionView } from "../api/sessions.ts"
import { asCaller } from "./as-caller.ts"

const toSessionView = (session: Session, current: boolean): typeof SessionView.Type => ({
  id: session.id,
  organizationId: session.organizationId,
  createdAt: session.createdAt,
  lastSeenAt: session.lastSeenAt,
  expiresAt: session.expiresAt,
  userAgent: session.userAgent,
  address: session.address,
  current
})

export const SessionsHandlers = HttpApiBuilder.group(RosterApi, "sessions", (handlers) =>
  handlers
    .handle("listSessions", () =>
      asCaller(listOwnSessions).pipe(
        Effect.map((sessions) => sessions.map(({ session, current }) => toSessionView(session, current)))
      )
    )
    .handle("endSession", ({ params }) =>
      asCaller((actor) =>
        Effect.map(endOwnSession(actor, params.id), (ended) =>
          toSessionView(ended, actor._tag === "Member" && actor.sessionTokenHash === ended.tokenHash)
        )
      )
    )
)
