import { Effect, Schema } from "effect"
import { defaultPageLimit, type Page, PageLimit, pageOf } from "../../model/page.ts"
import type { Principal } from "../../model/principal.ts"
import { DomainPosition, type SsoDomain, toSsoDomain } from "../../model/sso-domain.ts"
import { requirePermission } from "../../policy/access.ts"
import { DomainStore } from "../../ports/domain-store.ts"

export const ListDomainsInput = Schema.Struct({
  limit: Schema.optionalKey(PageLimit),
  after: Schema.optionalKey(DomainPosition)
})
export type ListDomainsInput = typeof ListDomainsInput.Type

/** One page of the organisation's domains, oldest first, each with its TXT record. */
export const listDomains = Effect.fnUntraced(function* (actor: Principal, input: ListDomainsInput = {}) {
  yield* requirePermission(actor, "organization.sso.write")
  const limit = input.limit ?? defaultPageLimit
  const rows = yield* (yield* DomainStore).page(input.after, limit + 1)
  const page: Page<SsoDomain, DomainPosition> = pageOf(rows.map(toSsoDomain), limit, ({ createdAt, id }) => ({
    createdAt,
    id
  }))
  return page
})
