import { DateTime, Effect, Layer, Option, Schema } from "effect"
import {
  DuplicateOrganizationSlug,
  defaultOrganizationId,
  defaultOrganizationSlug,
  Organization,
  OrganizationId,
  OrganizationStore
} from "../../core/index.ts"
import { RecordKit } from "./records.ts"
import { resource, type Where } from "./resource.ts"

/**
 * An organisation as kept: itself, and whether its deletion started (from then on no lookup finds
 * it). An Organization still, so that a read hands on the record it found as it is, uncopied: the
 * current organisation is read on every request.
 */
export class StoredOrganization extends Organization.extend<StoredOrganization>("roster/StoredOrganization")({
  deleting: Schema.optionalKey(Schema.Boolean)
}) {}

/** Organisations by id, their slugs unique in the deployment, listed oldest first (`byCreation`). */
export const organizations = resource({
  name: "organizations",
  schema: StoredOrganization,
  key: "id",
  columns: ["id", "slug", "name", "createdAt", "deleting"],
  unique: [["slug"]],
  indexes: [["createdAt"]],
  audit: "organization"
})

type Column = (typeof organizations.columns)[number]

const live = { deleting: null } as const
const oldestFirst = { by: ["createdAt"] } as const

const stored = (organization: Organization, deleting?: true) =>
  new StoredOrganization({ ...organization, ...(deleting === undefined ? {} : { deleting }) })

export const organizationStoreLayer = Layer.effect(
  OrganizationStore,
  Effect.gen(function* () {
    const kept = yield* (yield* RecordKit).open(organizations)
    // Every instance makes sure of the default organisation at start; a second insert is left.
    yield* kept.insertNew([
      stored(
        new Organization({
          id: defaultOrganizationId,
          name: "Default",
          slug: defaultOrganizationSlug,
          createdAt: yield* DateTime.now
        })
      )
    ])
    return OrganizationStore.of({
      findById: (id) => kept.find({ id, ...live }, { hot: true }),
      findByRef: (ref) =>
        kept.find(
          [
            { id: ref, ...live },
            { slug: ref, ...live }
          ],
          { hot: true }
        ),
      insert: (organization, entry) =>
        kept.insert(stored(organization), entry).pipe(
          Effect.catchTags({
            Taken: () => Effect.fail(new DuplicateOrganizationSlug({ slug: organization.slug })),
            Full: (full) => Effect.die(full)
          })
        ),
      update: (id, changes, entry) =>
        kept
          .modify({ id, ...live }, (current) => new StoredOrganization({ ...current, ...changes }), entry)
          .pipe(Effect.map(Option.map(({ after }) => after))),
      recordOwnerRole: (id, ownerRoleId) =>
        kept
          .modify({ id }, (current) =>
            current.ownerRoleId === undefined
              ? new StoredOrganization({ ...current, ownerRoleId })
              : undefined
          )
          .pipe(Effect.asVoid),
      startDeleting: (id, entry) =>
        kept
          .modify({ id, ...live }, (current) => stored(current, true), entry)
          .pipe(Effect.map(Option.map(({ before }) => before))),
      beingDeleted: kept
        .list({ deleting: true }, oldestFirst)
        .pipe(Effect.map((found) => found.map((organization) => OrganizationId.make(organization.id)))),
      remove: (id) => kept.remove({ id }).pipe(Effect.asVoid),
      page: (query, limit) => {
        const base: Where<Column> = live
        const where =
          query.q === undefined
            ? base
            : [
                { ...base, slug: { startsWith: query.q } },
                { ...base, name: { startsWith: query.q } }
              ]
        return kept.list(where, {
          ...oldestFirst,
          ...(query.after === undefined ? {} : { after: query.after }),
          limit
        })
      }
    })
  })
)
