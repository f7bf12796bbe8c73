import { Effect, Schema } from "effect"
import { type Organization, OrganizationPosition } from "../../model/organization.ts"
import { defaultPageLimit, type Page, PageLimit, pageOf } from "../../model/page.ts"
import type { Principal } from "../../model/principal.ts"
import { requireOperator } from "../../policy/access.ts"
import { OrganizationStore } from "../../ports/organization-store.ts"

export const ListOrganizationsInput = Schema.Struct({
  limit: Schema.optionalKey(PageLimit),
  after: Schema.optionalKey(OrganizationPosition),
  /** A prefix of the slug or of the name (case-insensitive). */
  q: Schema.optionalKey(Schema.String.check(Schema.isBetweenLength(1, 100)))
})
export type ListOrganizationsInput = typeof ListOrganizationsInput.Type

/** One page of the deployment's organisations, oldest first (the operator's to read). */
export const listOrganizations = Effect.fnUntraced(function* (
  actor: Principal,
  input: ListOrganizationsInput = {}
) {
  yield* requireOperator(actor)
  const limit = input.limit ?? defaultPageLimit
  const rows = yield* (yield* OrganizationStore).page(
    {
      ...(input.after === undefined ? {} : { after: input.after }),
      ...(input.q === undefined ? {} : { q: input.q })
    },
    limit + 1
  )
  const page: Page<Organization, OrganizationPosition> = pageOf(rows, limit, (organization) => ({
    createdAt: organization.createdAt,
    id: organization.id
  }))
  return page
})
