import { Effect, Layer, Option, Schema } from "effect"
import { PermissionId, SessionLookup, type SessionWithMember } from "../../core/index.ts"
import { readWithMember } from "../composed-session-lookup.ts"
import { decodeDocument, encodeDocument } from "../stored-schema.ts"
import { MembershipDocument } from "./account-documents.ts"
import { MongoDatabase } from "./database.ts"
import { query } from "./driver.ts"
import type { Snapshotted } from "./session-fences.ts"
import { toSession } from "./session-store.ts"

/** What authenticating a session needs, copied onto it: its membership, its role's standing, its permissions. */
const SnapshotDocument = Schema.Struct({
  member: MembershipDocument,
  role: Schema.optionalKey(Schema.Struct({ activeStatus: Schema.Boolean })),
  permissionIds: Schema.Array(PermissionId)
})

const toSnapshot = decodeDocument(SnapshotDocument)
const toSnapshotDocument = encodeDocument(SnapshotDocument)

/**
 * `SessionLookup` in one read: FerretDB, the server the tests run on, has no `$lookup` to join the
 * membership, role and permissions to the session, so the session carries a snapshot of them. A
 * session without one is read in full (four reads), then given one, but only if no write has
 * touched it since it was read and none is under way (see `sessionFences`, which every write to
 * what a snapshot copies goes through).
 */
export const makeSessionLookup = Effect.gen(function* () {
  const sessions = (yield* MongoDatabase).collection<Snapshotted>("sessions")
  const withMember = yield* readWithMember
  const keep = (document: Snapshotted, found: SessionWithMember) =>
    (document.fences ?? []).length > 0
      ? Effect.void
      : query(() =>
          sessions.updateOne(
            {
              _id: document._id,
              snapshotVersion: document.snapshotVersion ?? { $exists: false },
              "fences.0": { $exists: false },
              snapshot: { $exists: false }
            },
            {
              $set: {
                snapshot: toSnapshotDocument({
                  member: found.member,
                  ...(found.role === undefined ? {} : { role: { activeStatus: found.role.activeStatus } }),
                  permissionIds: found.permissionIds
                })
              }
            }
          )
        ).pipe(Effect.ignore)
  return SessionLookup.of({
    find: (tokenHash) =>
      Effect.gen(function* () {
        const document = yield* query(() => sessions.findOne({ _id: tokenHash }))
        if (document === null) return Option.none()
        const session = yield* toSession(document)
        if (document.snapshot !== undefined) {
          const { member, role, permissionIds } = yield* toSnapshot(document.snapshot)
          return Option.some({ session, member, role, permissionIds })
        }
        const found = yield* withMember(session)
        if (Option.isSome(found)) yield* keep(document, found.value)
        return found
      })
  })
})

export const sessionLookupLayer = Layer.effect(SessionLookup, makeSessionLookup)
