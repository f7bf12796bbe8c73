import { Effect, Option } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { MemberId } from "../../model/ids.ts"
import { hasTotp } from "../../model/mfa.ts"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import { requireWithinCeiling } from "../../policy/ceiling.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { MfaStore } from "../../ports/mfa-store.ts"

/**
 * Whether a member of the organisation has TOTP on: told only to who may clear it (the permission
 * and the ceiling), so that a reset is offered where there is something to reset. Never the secret,
 * never the codes.
 */
export const memberMfaStatus = Effect.fnUntraced(function* (actor: Principal, id: MemberId) {
  yield* requirePermission(actor, "admin.accounts.write")
  const found = yield* (yield* MemberStore).findById(id)
  if (Option.isNone(found)) return yield* new NotFound({ entity: "member", id })
  yield* requireWithinCeiling(actor, found.value.roleId)
  return { totp: hasTotp(Option.getOrUndefined(yield* (yield* MfaStore).find(id))) }
})
