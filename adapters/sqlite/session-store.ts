import { Effect, Layer } from "effect"
import {
  type AuthMethod,
  inOrganization,
  MemberId,
  OrganizationId,
  Session,
  SessionId,
  SessionStore,
  TokenHash
} from "../../core/index.ts"
import type { Row, SqlValue } from "./connection.ts"
import { SqliteDatabase } from "./database.ts"
import { flag, instantOf, int, isSet, millis, optionalRow, optionalText, rowChecked, text } from "./values.ts"

/** The methods a session's sign-in proved, as its `amr` column keeps them (space-separated). */
const amrOf = (stored: SqlValue | undefined): ReadonlyArray<AuthMethod> =>
  typeof stored === "string" && stored !== "" ? (stored.split(" ") as ReadonlyArray<AuthMethod>) : []

/** A session from its row; its columns named with `prefix` where a join named them so. */
export const toSession = (row: Row, prefix = "") =>
  new Session(
    {
      tokenHash: TokenHash.make(text(row[`${prefix}token_hash`])),
      id: SessionId.make(text(row[`${prefix}id`])),
      memberId: MemberId.make(text(row[`${prefix}member_id`])),
      organizationId: OrganizationId.make(text(row[`${prefix}organization_id`])),
      memberEpoch: int(row[`${prefix}member_epoch`]),
      createdAt: instantOf(row[`${prefix}created_at`]),
      lastSeenAt: instantOf(row[`${prefix}last_seen_at`]),
      expiresAt: instantOf(row[`${prefix}expires_at`]),
      userAgent: optionalText(row[`${prefix}user_agent`]),
      address: optionalText(row[`${prefix}address`]),
      mfaPending: isSet(row[`${prefix}mfa_pending`]),
      amr: amrOf(row[`${prefix}amr`]),
      authTime: instantOf(row[`${prefix}auth_time`] ?? row[`${prefix}created_at`])
    },
    rowChecked
  )

/** Sessions keyed by the SHA-256 of their token (the token is never stored); expired ones are swept. */
export const makeSessionStore = Effect.gen(function* () {
  const { read, write } = yield* SqliteDatabase
  return SessionStore.of({
    create: (session) =>
      write((db) => {
        // Expired sessions are honoured by no reader; their rows go as new ones come.
        db.run("DELETE FROM sessions WHERE expires_at <= ?", millis(session.createdAt))
        db.run(
          `INSERT INTO sessions (token_hash, id, member_id, organization_id, member_epoch, created_at,
             last_seen_at, expires_at, user_agent, address, mfa_pending, amr, auth_time)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          session.tokenHash,
          session.id,
          session.memberId,
          session.organizationId,
          session.memberEpoch,
          millis(session.createdAt),
          millis(session.lastSeenAt),
          millis(session.expiresAt),
          session.userAgent,
          session.address,
          flag(session.mfaPending),
          session.amr.join(" "),
          millis(session.authTime)
        )
      }),
    find: (tokenHash) =>
      read((db) =>
        optionalRow(db.get("SELECT * FROM sessions WHERE token_hash = ?", tokenHash), (row) => toSession(row))
      ),
    revoke: (tokenHash) =>
      write((db) => db.run("DELETE FROM sessions WHERE token_hash = ?", tokenHash).changes > 0),
    revokeAllOf: (memberId, except) =>
      write(
        (db) =>
          void db.run("DELETE FROM sessions WHERE member_id = ? AND token_hash <> ?", memberId, except ?? "")
      ),
    revokeMembership: (memberId) =>
      inOrganization((organizationId) =>
        write(
          (db) =>
            void db.run(
              "DELETE FROM sessions WHERE member_id = ? AND organization_id = ?",
              memberId,
              organizationId
            )
        )
      ),
    listOf: (memberId) =>
      read((db) =>
        db
          .all("SELECT * FROM sessions WHERE member_id = ? ORDER BY created_at, id", memberId)
          .map((row) => toSession(row))
      ),
    revokeById: (memberId, id) =>
      write((db) =>
        optionalRow(
          db.get("DELETE FROM sessions WHERE id = ? AND member_id = ? RETURNING *", id, memberId),
          (row) => toSession(row)
        )
      ),
    noteSeen: (tokenHash, minute) =>
      write(
        (db) =>
          void db.run(
            "UPDATE sessions SET last_seen_at = ? WHERE token_hash = ? AND last_seen_at < ?",
            millis(minute),
            tokenHash,
            millis(minute)
          )
      ),
    setMfaPending: (organizationId, pending, { only, except = [] }) =>
      write(
        (db) =>
          void db.run(
            `UPDATE sessions SET mfa_pending = ? WHERE organization_id = ?
             AND member_id NOT IN (SELECT value FROM json_each(?))${only === undefined ? "" : " AND member_id = ?"}`,
            flag(pending),
            organizationId,
            JSON.stringify(except),
            ...(only === undefined ? [] : [only])
          )
      ),
    clearMfaPending: (memberId) =>
      write((db) => void db.run("UPDATE sessions SET mfa_pending = 0 WHERE member_id = ?", memberId)),
    carryOver: (tokenHash, memberEpoch) =>
      write(
        (db) =>
          void db.run("UPDATE sessions SET member_epoch = ? WHERE token_hash = ?", memberEpoch, tokenHash)
      )
  })
})

export const sessionStoreLayer = Layer.effect(SessionStore, makeSessionStore)
