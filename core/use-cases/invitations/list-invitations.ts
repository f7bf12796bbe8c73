import { DateTime, Effect, Schema } from "effect"
import {
  InvitationPosition,
  InvitationStatus,
  type InvitationView,
  toInvitationView
} from "../../model/invitation.ts"
import { defaultPageLimit, type Page, PageLimit, pageOf } from "../../model/page.ts"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import { InvitationStore } from "../../ports/invitation-store.ts"

export const ListInvitationsInput = Schema.Struct({
  status: Schema.optionalKey(InvitationStatus),
  limit: Schema.optionalKey(PageLimit),
  /** Where the previous page ended; the first page when absent. */
  after: Schema.optionalKey(InvitationPosition)
})
export type ListInvitationsInput = typeof ListInvitationsInput.Type

/** One page of the organisation's invitations, oldest first, filtered by what they are now. */
export const listInvitations = Effect.fnUntraced(function* (
  actor: Principal,
  input: ListInvitationsInput = {}
) {
  yield* requirePermission(actor, "team.read")
  const { limit = defaultPageLimit, ...filter } = input
  const now = yield* DateTime.now
  const rows = yield* (yield* InvitationStore).page({ ...filter, now }, limit + 1)
  const page: Page<InvitationView, InvitationPosition> = pageOf(
    rows.map((invitation) => toInvitationView(invitation, now)),
    limit,
    ({ createdAt, id }) => ({ createdAt, id })
  )
  return page
})
