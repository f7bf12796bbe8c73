import { Effect, Layer, Option } from "effect"
import {
  AlreadyMember,
  type AuditEntry,
  inOrganization,
  type MemberId,
  MemberRecord,
  MemberStore,
  type RoleId,
  UnknownRole,
  usernameKey
} from "../../core/index.ts"
import { appendEntry } from "./audit-log.ts"
import type { SqliteConnection } from "./connection.ts"
import { SqliteDatabase } from "./database.ts"
import { memberReads } from "./member-reads.ts"
import { conflictOf, deleteUnheld, hasRole, insertMembership, memberIn } from "./member-rows.ts"
import { flag, millis, text } from "./values.ts"

const unknownRole = (roleId: RoleId) => Effect.fail(new UnknownRole({ roleId }))

export const makeMemberStore = Effect.gen(function* () {
  const { read, readRemembered, readWritten, write, transaction } = yield* SqliteDatabase

  /** An account-wide change to a member of the current organisation, answered as seen there. */
  const changeAccount = (
    id: MemberId,
    change: (db: SqliteConnection) => void,
    entry: AuditEntry | undefined
  ) =>
    inOrganization((organizationId) =>
      transaction((db) => {
        if (Option.isNone(memberIn(db, organizationId, id))) return Option.none<MemberRecord>()
        change(db)
        appendEntry(db, entry)
        return memberIn(db, organizationId, id)
      })
    )

  return MemberStore.of({
    insert: ({ passwordHash, ...member }, entry) =>
      transaction((db) => {
        if (!hasRole(db, member.organizationId, member.roleId)) return false
        db.run(
          `INSERT INTO accounts (id, username, username_key, email, email_verified, password_hash, active, epoch, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)`,
          member.id,
          member.username,
          usernameKey(member.username),
          member.email,
          flag(member.emailVerified),
          passwordHash,
          flag(member.accountActiveStatus),
          millis(member.createdAt)
        )
        insertMembership(db, new MemberRecord(member))
        appendEntry(db, entry)
        return true
      }).pipe(
        Effect.catchTag("UniqueViolation", () =>
          Effect.flatMap(
            readWritten((db) => conflictOf(db, member.id, member)),
            Effect.fail
          )
        ),
        Effect.flatMap((written) => (written ? Effect.void : unknownRole(member.roleId)))
      ),
    join: (member, entry) =>
      transaction((db) => {
        if (db.get("SELECT 1 FROM accounts WHERE id = ?", member.id) === undefined) return false
        if (!hasRole(db, member.organizationId, member.roleId)) return "unknown role" as const
        insertMembership(db, member)
        appendEntry(db, entry)
        return true
      }).pipe(
        Effect.catchTag("UniqueViolation", () => Effect.fail(new AlreadyMember({ email: member.email }))),
        Effect.flatMap((joined) =>
          joined === "unknown role" ? unknownRole(member.roleId) : Effect.succeed(joined)
        )
      ),
    ...memberReads({ read, readRemembered }),
    setAccountStatus: (id, active, entry) =>
      changeAccount(
        id,
        (db) =>
          void db.run(
            "UPDATE accounts SET active = ?, epoch = epoch + ? WHERE id = ?",
            flag(active),
            active ? 0 : 1,
            id
          ),
        entry
      ).pipe(Effect.catchTag("UniqueViolation", (violation) => Effect.die(violation))),
    setPassword: (id, passwordHash, entry) =>
      changeAccount(
        id,
        (db) =>
          void db.run(
            "UPDATE accounts SET password_hash = ?, epoch = epoch + 1 WHERE id = ?",
            passwordHash,
            id
          ),
        entry
      ).pipe(Effect.catchTag("UniqueViolation", (violation) => Effect.die(violation))),
    updateAccount: (id, changes, entry) =>
      changeAccount(
        id,
        (db) => {
          if (changes.username !== undefined) {
            db.run(
              "UPDATE accounts SET username = ?, username_key = ? WHERE id = ?",
              changes.username,
              usernameKey(changes.username),
              id
            )
          }
          if (changes.email !== undefined)
            db.run("UPDATE accounts SET email = ? WHERE id = ?", changes.email, id)
          if (changes.emailVerified !== undefined)
            db.run("UPDATE accounts SET email_verified = ? WHERE id = ?", flag(changes.emailVerified), id)
        },
        entry
      ).pipe(
        Effect.catchTag("UniqueViolation", () =>
          Effect.flatMap(
            readWritten((db) => conflictOf(db, id, changes)),
            Effect.fail
          )
        )
      ),
    verifyEmail: (id, email, entry) =>
      inOrganization((organizationId) =>
        write((db) => {
          if (Option.isNone(memberIn(db, organizationId, id))) return Option.none<MemberRecord>()
          const marked = db.run(
            "UPDATE accounts SET email_verified = 1 WHERE id = ? AND email = ?",
            id,
            email
          )
          if (marked.changes === 0) return Option.none<MemberRecord>()
          appendEntry(db, entry)
          return memberIn(db, organizationId, id)
        })
      ),
    update: (id, roleId, changes, endSessions, entry) =>
      inOrganization((organizationId) =>
        write((db) => {
          const current = memberIn(db, organizationId, id)
          if (Option.isNone(current) || current.value.roleId !== roleId) return Option.none()
          const moveTo = changes.roleId ?? roleId
          if (moveTo !== roleId && !hasRole(db, organizationId, moveTo)) return "unknown role" as const
          db.run(
            "UPDATE memberships SET role_id = ?, active = ?, epoch = epoch + ? WHERE organization_id = ? AND account_id = ?",
            moveTo,
            flag(changes.activestatus ?? current.value.activestatus),
            endSessions ? 1 : 0,
            organizationId,
            id
          )
          appendEntry(db, entry)
          return memberIn(db, organizationId, id)
        })
      ).pipe(
        Effect.flatMap((updated) =>
          updated === "unknown role" ? unknownRole(changes.roleId ?? roleId) : Effect.succeed(updated)
        )
      ),
    removeAll: inOrganization((organizationId) =>
      write((db) => {
        const ids = db
          .all("SELECT account_id FROM memberships WHERE organization_id = ?", organizationId)
          .map((row) => text(row.account_id))
        db.run("DELETE FROM memberships WHERE organization_id = ?", organizationId)
        deleteUnheld(db, ids)
      })
    ),
    remove: (id, entry) =>
      inOrganization((organizationId) =>
        write((db) => {
          const removed = memberIn(db, organizationId, id)
          if (Option.isNone(removed)) return removed
          db.run("DELETE FROM memberships WHERE organization_id = ? AND account_id = ?", organizationId, id)
          deleteUnheld(db, [id])
          appendEntry(db, entry)
          return removed
        })
      )
  })
})

export const memberStoreLayer = Layer.effect(MemberStore, makeMemberStore)
