import { DateTime, Effect, Layer, Option } from "effect"
import {
  byCreation,
  DuplicateOrganizationSlug,
  defaultOrganizationId,
  defaultOrganizationSlug,
  isOlderThan,
  Organization,
  OrganizationId,
  type OrganizationQuery,
  OrganizationStore
} from "../../core/index.ts"
import { MemoryAuditTrail } from "./audit-log.ts"

const matches = (organization: Organization, query: OrganizationQuery) =>
  (query.after === undefined || isOlderThan(query.after, organization)) &&
  (query.q === undefined ||
    organization.slug.startsWith(query.q.toLowerCase()) ||
    organization.name.toLowerCase().startsWith(query.q.toLowerCase()))

export const makeOrganizationStore = Effect.gen(function* () {
  const trail = yield* MemoryAuditTrail
  const byId = new Map<string, Organization>()
  const createdAt = yield* DateTime.now
  byId.set(
    defaultOrganizationId,
    new Organization({ id: defaultOrganizationId, name: "Default", slug: defaultOrganizationSlug, createdAt })
  )
  const deleting = new Set<string>()
  const live = (organization: Organization | undefined) =>
    organization === undefined || deleting.has(organization.id) ? undefined : organization
  const bySlug = (slug: string) => [...byId.values()].find((organization) => organization.slug === slug)
  return OrganizationStore.of({
    findById: (id) => Effect.sync(() => Option.fromNullishOr(live(byId.get(id)))),
    findByRef: (ref) => Effect.sync(() => Option.fromNullishOr(live(byId.get(ref) ?? bySlug(ref)))),
    insert: (organization, entry) =>
      Effect.suspend(() => {
        if (bySlug(organization.slug) !== undefined) {
          return Effect.fail(new DuplicateOrganizationSlug({ slug: organization.slug }))
        }
        byId.set(organization.id, organization)
        trail.append(entry)
        return Effect.void
      }),
    update: (id, changes, entry) =>
      Effect.sync(() => {
        const current = live(byId.get(id))
        if (current === undefined) return Option.none()
        const updated = new Organization({ ...current, ...changes })
        byId.set(id, updated)
        trail.append(entry)
        return Option.some(updated)
      }),
    recordOwnerRole: (id, ownerRoleId) =>
      Effect.sync(() => {
        const current = byId.get(id)
        if (current !== undefined && current.ownerRoleId === undefined)
          byId.set(id, new Organization({ ...current, ownerRoleId }))
      }),
    startDeleting: (id, entry) =>
      Effect.sync(() => {
        const current = live(byId.get(id))
        if (current === undefined) return Option.none()
        deleting.add(id)
        trail.append(entry)
        return Option.some(current)
      }),
    beingDeleted: Effect.sync(() => [...deleting].map((id) => OrganizationId.make(id))),
    remove: (id) =>
      Effect.sync(() => {
        byId.delete(id)
        deleting.delete(id)
      }),
    page: (query, limit) =>
      Effect.sync(() =>
        [...byId.values()]
          .filter((organization) => !deleting.has(organization.id) && matches(organization, query))
          .sort(byCreation)
          .slice(0, limit)
      )
  })
})

export const organizationStoreLayer = Layer.effect(OrganizationStore, makeOrganizationStore)
