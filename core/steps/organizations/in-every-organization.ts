import { Effect } from "effect"
import type { Organization, OrganizationPosition } from "../../model/organization.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { OrganizationStore } from "../../ports/organization-store.ts"

const pageSize = 200

/**
 * Runs `work` for each organisation of the deployment in turn, oldest first, acting in it: the
 * service's work at start and in the background (owner roles, seats) is per organisation too.
 */
export const inEveryOrganization = <E, R>(work: (organization: Organization) => Effect.Effect<void, E, R>) =>
  Effect.gen(function* () {
    const organizations = yield* OrganizationStore
    let after: OrganizationPosition | undefined
    for (;;) {
      // Stryker disable next-line ConditionalExpression: no position and an undefined one read the same page
      const page = yield* organizations.page(after === undefined ? {} : { after }, pageSize)
      for (const organization of page) {
        yield* work(organization).pipe(Effect.provideService(CurrentOrganization, organization.id))
      }
      const last = page[page.length - 1]
      // Stryker disable next-line ConditionalExpression,LogicalOperator: a short page ends it a read sooner than an empty one
      if (last === undefined || page.length < pageSize) return
      after = { createdAt: last.createdAt, id: last.id }
    }
  })
