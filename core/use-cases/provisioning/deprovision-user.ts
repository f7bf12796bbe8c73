import { Effect } from "effect"
import type { MemberId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { ProvisioningStore } from "../../ports/provisioning-store.ts"
import { removeMember } from "../../steps/members/remove-member.ts"

/** An identity provider deletes a person: the membership goes (see `removeMember`), with its profile. */
export const deprovisionUser = Effect.fnUntraced(function* (actor: Principal, id: MemberId) {
  yield* removeMember(actor, id)
  yield* (yield* ProvisioningStore).removeUser(id)
})
