import { Effect, Option } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { MemberId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { ProvisioningStore } from "../../ports/provisioning-store.ts"
import { provisionedUserOf } from "../../steps/provisioning/provisioned-user-of.ts"

/** A member as an identity provider sees it: with its profile and its role. */
export const getProvisionedUser = Effect.fnUntraced(function* (actor: Principal, id: MemberId) {
  yield* requirePermission(actor, "team.read")
  const found = yield* (yield* MemberStore).findById(id)
  if (Option.isNone(found)) return yield* new NotFound({ entity: "member", id })
  return yield* provisionedUserOf(found.value, yield* (yield* ProvisioningStore).findUser(id))
})
