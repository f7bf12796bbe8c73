import { DateTime, Effect, Option } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { InvitationId } from "../../model/ids.ts"
import { toInvitationView } from "../../model/invitation.ts"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import { InvitationStore } from "../../ports/invitation-store.ts"

export const getInvitation = Effect.fnUntraced(function* (actor: Principal, id: InvitationId) {
  yield* requirePermission(actor, "team.read")
  const found = yield* (yield* InvitationStore).findById(id)
  if (Option.isNone(found)) return yield* new NotFound({ entity: "invitation", id })
  return toInvitationView(found.value, yield* DateTime.now)
})
