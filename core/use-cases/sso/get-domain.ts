import { Effect, Option } from "effect"
import { NotFound } from "../../model/errors.ts"
import type { DomainId } from "../../model/ids.ts"
import type { Principal } from "../../model/principal.ts"
import { toSsoDomain } from "../../model/sso-domain.ts"
import { requirePermission } from "../../policy/access.ts"
import { DomainStore } from "../../ports/domain-store.ts"

/** One of the organisation's domains, with its TXT record and whether it is verified. */
export const getDomain = Effect.fnUntraced(function* (actor: Principal, id: DomainId) {
  yield* requirePermission(actor, "organization.sso.write")
  const found = yield* (yield* DomainStore).find(id)
  if (Option.isNone(found)) return yield* new NotFound({ entity: "domain", id })
  return toSsoDomain(found.value)
})
