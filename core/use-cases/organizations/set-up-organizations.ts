import { Effect } from "effect"
import { defaultOrganizationId } from "../../model/organization.ts"
import { OrganizationStore } from "../../ports/organization-store.ts"
import { finishDeleting } from "../../steps/organizations/finish-deleting.ts"
import { inEveryOrganization } from "../../steps/organizations/in-every-organization.ts"
import { setUpOrganization } from "../../steps/organizations/set-up-organization.ts"

/**
 * Finishes the deletions a crash interrupted, then runs `setUpOrganization` for every organisation
 * but the default one (which has no built-in role): the service does at start, so that an
 * interrupted creation is finished and a permission appended to the catalog is held by every
 * organisation's Owner role (the one it records by id).
 */
export const setUpOrganizations = Effect.gen(function* () {
  for (const deleting of yield* (yield* OrganizationStore).beingDeleted) yield* finishDeleting(deleting)
  yield* inEveryOrganization((organization) =>
    organization.id === defaultOrganizationId ? Effect.void : setUpOrganization(organization)
  )
})
