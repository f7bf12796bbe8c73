import { Effect, Option } from "effect"
import { DomainTaken } from "../../model/sso-errors.ts"
import { DomainStore } from "../../ports/domain-store.ts"

/** Refuses a domain that an organisation holds verified (this one included: it has it already). */
export const requireDomainFree = Effect.fnUntraced(function* (domain: string) {
  const held = yield* (yield* DomainStore).findVerified(domain)
  if (Option.isSome(held)) return yield* new DomainTaken({ domain })
})
