import { Effect } from "effect"
import type { Membership } from "../model/account.ts"
import { AccountShared } from "../model/errors.ts"
import type { MemberId } from "../model/ids.ts"
import type { Principal } from "../model/principal.ts"
import { CurrentOrganization } from "../model/request.ts"
import { MemberStore } from "../ports/member-store.ts"
import { boundOrganizationOf } from "./access.ts"

/**
 * An account-wide change (password, account status, username, e-mail) from an organisation's
 * administrator or identity provider: allowed only on an account whose every membership (as read,
 * `memberships`) is in that organisation, since the change shows in the others too. The operator
 * may change any account.
 */
export const requireMembershipsHere = Effect.fnUntraced(function* (
  actor: Principal,
  id: MemberId,
  memberships: ReadonlyArray<Membership>
) {
  if (boundOrganizationOf(actor) === undefined) return
  const organizationId = yield* CurrentOrganization
  if (memberships.some((membership) => membership.organizationId !== organizationId)) {
    return yield* new AccountShared({ memberId: id })
  }
})

/** `requireMembershipsHere`, with the account's memberships read for it. */
export const requireAccountNotShared = Effect.fnUntraced(function* (actor: Principal, id: MemberId) {
  if (boundOrganizationOf(actor) === undefined) return
  yield* requireMembershipsHere(actor, id, yield* (yield* MemberStore).membershipsOf(id))
})
