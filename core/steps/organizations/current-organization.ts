import { Effect, Option } from "effect"
import { NotFound } from "../../model/errors.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { OrganizationStore } from "../../ports/organization-store.ts"

/** The organisation the request acts on, as stored. */
export const currentOrganization = Effect.gen(function* () {
  const id = yield* CurrentOrganization
  const found = yield* (yield* OrganizationStore).findById(id)
  if (Option.isNone(found)) return yield* new NotFound({ entity: "organization", id })
  return found.value
})
