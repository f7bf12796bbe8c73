// A file the hand-written session store of version 18 wrote, read through the sessions'
// declaration of version 19: each old write copied here as the raw SQL it ran.
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { hashToken } from "../../adapters/crypto/index.ts"
import type { SqliteConnection } from "../../adapters/sqlite/connection.ts"
import { openBunSqlite, sqliteStores } from "../../adapters/sqlite/index.ts"
import { latestSchemaVersion } from "../../adapters/sqlite/migrations.ts"
import {
  MemberId,
  MemberStore,
  RoleStore,
  Session,
  SessionId,
  SessionLookup,
  SessionStore
} from "../../core/index.ts"
import { assertEquals, at, memberRecord, newRole, sessionOf, valueOf } from "../support/contract.ts"
import { fileAtVersion, tablesOf } from "../support/sqlite-versions.ts"
import { scratchFile } from "../support/stores.ts"

const ada = memberRecord("ada")
/** A session of today, with all it records. */
const laptop = new Session({
  ...sessionOf("laptop", ada.id, 2),
  createdAt: at(20),
  lastSeenAt: at(120),
  userAgent: "Firefox",
  address: "198.51.100.7",
  mfaPending: true,
  amr: ["pwd", "otp", "mfa"],
  authTime: at(15)
})
/** A session made before Roster recorded its sign-in's proof (version 14's columns empty). */
const older = new Session({
  ...sessionOf("older", ada.id),
  createdAt: at(10),
  lastSeenAt: at(10),
  amr: [],
  authTime: at(10)
})

/** What version 18's session store ran: `create` for each, the older one's proof left as version 14 left it. */
const writtenByVersion18 = (db: SqliteConnection) => {
  const insert = `INSERT INTO sessions (token_hash, id, member_id, organization_id, member_epoch, created_at,
     last_seen_at, expires_at, user_agent, address, mfa_pending, amr, auth_time)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
  db.run(
    insert,
    laptop.tokenHash,
    laptop.id,
    ada.id,
    "default",
    2,
    20_000,
    20_000,
    3_600_000,
    "Firefox",
    "198.51.100.7",
    0,
    "pwd otp mfa",
    15_000
  )
  db.run(
    "UPDATE sessions SET last_seen_at = ? WHERE token_hash = ? AND last_seen_at < ?",
    120_000,
    laptop.tokenHash,
    120_000
  )
  db.run("UPDATE sessions SET mfa_pending = ? WHERE organization_id = ?", 1, "default")
  db.run(
    insert,
    older.tokenHash,
    older.id,
    ada.id,
    "default",
    0,
    10_000,
    10_000,
    3_600_000,
    null,
    null,
    0,
    "",
    null
  )
}

describe("the sessions of version 18, on SQLite", () => {
  it.effect("are found, listed, looked up, changed and ended through their declaration's table", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const path = yield* scratchFile
        const old = yield* fileAtVersion(path, 18)
        writtenByVersion18(old)
        old.close()
        yield* Effect.gen(function* () {
          const sessions = yield* SessionStore
          assertEquals(valueOf(yield* sessions.find(laptop.tokenHash)), laptop)
          assertEquals(yield* sessions.listOf(ada.id), [older, laptop])
          const staff = yield* (yield* RoleStore).insert(newRole("staff"))
          yield* (yield* MemberStore).insert(memberRecord("ada", { roleId: staff.id }))
          const found = valueOf(yield* (yield* SessionLookup).find(laptop.tokenHash), "looked up in one read")
          assertEquals(found.session, laptop)
          assert.strictEqual(found.member.username, "ada")
          yield* sessions.clearMfaPending(ada.id)
          assert.isFalse(valueOf(yield* sessions.find(laptop.tokenHash)).mfaPending)
          const refused = yield* Effect.exit(
            sessions.create(new Session({ ...sessionOf("again", "bob"), id: older.id }))
          )
          assert.isTrue(refused._tag === "Failure", "its id is still unique")
          assertEquals(valueOf(yield* sessions.revokeById(ada.id, SessionId.make(older.id))), older)
          yield* sessions.revokeAllOf(MemberId.make(ada.id))
          assert.isTrue(Option.isNone(yield* sessions.find(hashToken("laptop"))))
        }).pipe(Effect.provide(Layer.orDie(sqliteStores({ path, open: openBunSqlite }))))

        const after = yield* Effect.promise(() => openBunSqlite(path))
        assert.strictEqual(Number(after.get("PRAGMA user_version")?.user_version), latestSchemaVersion)
        assert.notInclude(tablesOf(after), "sessions_before_kit")
        after.close()
      })
    )
  )
})
