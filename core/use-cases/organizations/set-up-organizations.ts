import { Effect } from "effect"
import { defaultOrganizationId, type OrganizationPosition } from "../../model/organization.ts"
import { OrganizationStore } from "../../ports/organization-store.ts"
import { finishDeleting } from "./delete-organization.ts"
import { setUpOrganization } from "./set-up-organization.ts"

/**
 * Finishes the deletions a crash interrupted, then runs `setUpOrganization` for every organisation
 * but the default one (which has no built-in role): the service does at start, so that an
 * interrupted creation is finished and a permission appended to the catalog is held by every
 * `Owner` role.
 */
export const setUpOrganizations = Effect.gen(function* () {
  const organizations = yield* OrganizationStore
  for (const deleting of yield* organizations.beingDeleted) yield* finishDeleting(deleting)
  let after: OrganizationPosition | undefined
  for (;;) {
    const page = yield* organizations.page(after === undefined ? {} : { after }, 200)
    for (const organization of page) {
      if (organization.id !== defaultOrganizationId) yield* setUpOrganization(organization.id)
    }
    const last = page[page.length - 1]
    if (last === undefined || page.length < 200) return
    after = { createdAt: last.createdAt, id: last.id }
  }
})
