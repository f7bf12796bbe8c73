import { Effect } from "effect"
import { Forbidden } from "../../model/errors.ts"
import type { MemberPrincipal, Principal } from "../../model/principal.ts"

/** The caller as a person signed in to their own account: an API key, the master key and the open mode are none. */
export const ownAccount = (actor: Principal): Effect.Effect<MemberPrincipal, Forbidden> => {
  if (actor._tag === "Member") return Effect.succeed(actor)
  return Effect.fail(new Forbidden({ reason: actor._tag === "ApiKey" ? "person_only" : "no_account" }))
}
