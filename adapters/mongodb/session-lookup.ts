import { Effect, Layer, Option, Schema } from "effect"
import { PermissionId, type Session, SessionLookup, type SessionWithMember } from "../../core/index.ts"
import { sessions as sessionResource } from "../resources/sessions.ts"
import {
  type Fenced,
  isFenced,
  MembershipDocument,
  notRemoved,
  type Snapshotted,
  toMembership
} from "./consistency/index.ts"
import { MongoDatabase } from "./database.ts"
import { query } from "./driver.ts"
import { documentsOf } from "./kit-documents.ts"
import { storedRoleOf } from "./role-lookup.ts"
import { decodeDocument, encodeDocument } from "./stored-schema.ts"

/** A role's standing as its document and a snapshot store it. */
const StandingDocument = Schema.Struct({
  activeStatus: Schema.Boolean,
  deactivatedAt: Schema.optionalKey(Schema.DateTimeUtcFromDate)
})

/** What authenticating a session needs, copied onto it: its membership, its role's standing, its permissions. */
const SnapshotDocument = Schema.Struct({
  member: MembershipDocument,
  role: Schema.optionalKey(StandingDocument),
  permissionIds: Schema.Array(PermissionId)
})

const toSnapshot = decodeDocument(SnapshotDocument)
const toStanding = decodeDocument(StandingDocument)

const standingOf = ({ activeStatus, deactivatedAt }: typeof StandingDocument.Encoded) =>
  toStanding(deactivatedAt === undefined ? { activeStatus } : { activeStatus, deactivatedAt })
const toSnapshotDocument = encodeDocument(SnapshotDocument)

/**
 * `SessionLookup` in one read: FerretDB, the server the tests run on, has no `$lookup` to join the
 * membership, role and permissions to the session, so the session carries a snapshot of them. A
 * session without one is read in full (three reads: the session, its membership, its role with
 * its permission record), then given one, but only if neither its
 * membership nor its role carried a fence and no fence has moved its version on since it was read
 * (see `sessionFences`, behind which every write to what a snapshot copies runs).
 */
export const makeSessionLookup = Effect.gen(function* () {
  const db = yield* MongoDatabase
  const sessions = db.collection<Snapshotted>("sessions")
  const members = db.collection<MembershipDocument & Fenced>("members")
  const storedRole = storedRoleOf(db).find
  const { toRecord } = documentsOf(sessionResource)

  /** The session's member, role and permissions as stored, and whether a fence stood on them. */
  const readInFull = (session: Session) =>
    Effect.gen(function* () {
      const { organizationId } = session
      const membership = yield* query(() =>
        members.findOne({ accountId: session.memberId, organizationId, ...notRemoved })
      )
      if (membership === null) return undefined
      const member = yield* toMembership(membership)
      const role = yield* storedRole(member.roleId, organizationId)
      const found: SessionWithMember = {
        session,
        member,
        role: role === null ? undefined : yield* standingOf(role.document),
        permissionIds: role?.permissionIds ?? []
      }
      return { found, fenced: isFenced(membership) || (role !== null && isFenced(role.document)) }
    })

  const saveSnapshot = (document: Snapshotted, { member, role, permissionIds }: SessionWithMember) =>
    query(() =>
      sessions.updateOne(
        {
          _id: document._id,
          snapshotVersion: document.snapshotVersion ?? { $exists: false },
          snapshot: { $exists: false }
        },
        {
          $set: {
            snapshot: toSnapshotDocument({ member, ...(role === undefined ? {} : { role }), permissionIds })
          }
        }
      )
    ).pipe(Effect.ignore)

  return SessionLookup.of({
    find: (tokenHash) =>
      Effect.gen(function* () {
        const document = yield* query(() => sessions.findOne({ _id: tokenHash }))
        if (document === null) return Option.none()
        const session = toRecord(document)
        if (document.snapshot !== undefined) {
          const { member, role, permissionIds } = yield* toSnapshot(document.snapshot)
          return Option.some({ session, member, role, permissionIds })
        }
        const read = yield* readInFull(session)
        if (read === undefined) return Option.none()
        if (!read.fenced) yield* saveSnapshot(document, read.found)
        return Option.some(read.found)
      })
  })
})

export const sessionLookupLayer = Layer.effect(SessionLookup, makeSessionLookup)
