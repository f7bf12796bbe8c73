import { DateTime, Effect, Layer } from "effect"
import {
  DuplicateRoleKey,
  inOrganization,
  Role,
  RoleId,
  RoleStore,
  type RoleUpdate
} from "../../core/index.ts"
import {
  auditedWrites,
  notRemoved,
  RoleDocument,
  roleDocumentsPage,
  roleHolders,
  sessionFences,
  toRole
} from "./consistency/index.ts"
import { nextInSequence } from "./counters.ts"
import { MongoDatabase } from "./database.ts"
import { query, queryWrite } from "./driver.ts"
import { encodeDocument, optionally } from "./stored-schema.ts"

/** A change as the document stores it: the instant of a deactivation as a date. */
const toStoredChanges = ({ deactivatedAt, ...changes }: RoleUpdate) =>
  deactivatedAt === undefined ? changes : { ...changes, deactivatedAt: DateTime.toDateUtc(deactivatedAt) }
const toDocument = encodeDocument(RoleDocument)

export const makeRoleStore = Effect.gen(function* () {
  const db = yield* MongoDatabase
  const writes = auditedWrites<typeof RoleDocument.Encoded>(db, "roles")
  const roles = writes.collection
  const holders = roleHolders(db)
  const fences = sessionFences(db)
  return RoleStore.of({
    insert: (role, audit) =>
      inOrganization((organizationId) =>
        Effect.gen(function* () {
          const id = RoleId.make(yield* nextInSequence(db, "roles"))
          // The allocated id, whatever `id` a caller's object may carry along.
          const created = new Role({ ...role, id })
          const entry = audit?.(created)
          yield* writes
            .insert({ ...toDocument(created), organizationId }, entry)
            .pipe(
              Effect.catchTag("DuplicateKey", () =>
                Effect.fail(new DuplicateRoleKey({ roleKey: role.roleKey }))
              )
            )
          return created
        })
      ),
    // The write is one atomic update under the unique roleKey index; the answer is the document that
    // write left, never a later read that could show another writer's change. Sessions copy only the
    // role's standing, so only a change of it goes behind a fence.
    update: (id, changes, entry) =>
      inOrganization((organizationId) => {
        if (Object.keys(changes).length === 0)
          return query(() => roles.findOne({ _id: id, organizationId, ...notRemoved }))
        const write = writes
          .update({ _id: id, organizationId }, { $set: toStoredChanges(changes) }, entry)
          .pipe(
            Effect.catchTag("DuplicateKey", () =>
              Effect.fail(new DuplicateRoleKey({ roleKey: changes.roleKey ?? "" }))
            )
          )
        return changes.activeStatus === undefined ? write : fences.ofRole(organizationId, id)(write)
      }).pipe(Effect.flatMap(optionally(toRole))),
    remove: (id, entry) =>
      inOrganization((organizationId) => fences.ofRole(organizationId, id)(holders.remove(id, entry))).pipe(
        Effect.flatMap(optionally(toRole))
      ),
    removeAll: inOrganization((organizationId) =>
      fences.ofOrganization(organizationId)(queryWrite(() => roles.deleteMany({ organizationId })))
    ).pipe(Effect.asVoid),
    findById: (id) =>
      inOrganization((organizationId) =>
        query(() => roles.findOne({ _id: id, organizationId, ...notRemoved }))
      ).pipe(Effect.flatMap(optionally(toRole))),
    page: (after, limit) =>
      roleDocumentsPage(roles, after, limit).pipe(
        Effect.flatMap((documents) => Effect.forEach(documents, toRole))
      )
  })
})

export const roleStoreLayer = Layer.effect(RoleStore, makeRoleStore)
