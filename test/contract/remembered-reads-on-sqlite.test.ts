// Reads SQLite remembers (the session, roles, members) are forgotten at once when anything is
// committed, by this process or another one on the same file: two instances share the file here.
import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Layer, Option } from "effect"
import { commitWatch } from "../../adapters/sqlite/commit-watch.ts"
import { openBunSqlite, sqliteStores } from "../../adapters/sqlite/index.ts"
import { rememberedReads } from "../../adapters/sqlite/remembered-reads.ts"
import { MemberStore, RoleLookup, RoleStore, SessionLookup, SessionStore } from "../../core/index.ts"
import { memberRecord, newRole, sessionOf, withRoles } from "../support/contract.ts"
import { scratchFile } from "../support/stores.ts"

const twoInstances = scratchFile.pipe(
  Effect.flatMap((path) =>
    Effect.all([
      Layer.build(withRoles(sqliteStores({ path, open: openBunSqlite }))),
      Layer.build(sqliteStores({ path, open: openBunSqlite }))
    ])
  )
)

describe("remembered reads on SQLite", () => {
  it.effect("answer what another instance committed on the same file, from the next read on", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const [a, b] = yield* twoInstances
        const on = <S, I>(context: Context.Context<I>, service: Context.Key<I, S>) =>
          Context.get(context, service)
        const role = yield* on(a, RoleStore).insert(newRole("staff"))
        const ada = memberRecord("ada", { roleId: role.id })
        yield* on(a, MemberStore).insert(ada)
        const session = sessionOf("ada-token", ada.id)
        yield* on(a, SessionStore).create(session)

        const found = () => on(a, SessionLookup).find(session.tokenHash)
        const roleName = () =>
          on(a, RoleLookup)
            .find(role.id)
            .pipe(Effect.map(Option.map((r) => r.role.name)))
        const activeMembers = () =>
          on(a, MemberStore)
            .page({ active: true }, 10)
            .pipe(Effect.map((m) => m.length))
        assert.isTrue(Option.isSome(yield* found()))
        assert.isTrue(Option.isSome(yield* found()), "remembered, still there")
        assert.deepStrictEqual(yield* roleName(), Option.some("Role staff"))
        assert.strictEqual(yield* activeMembers(), 1)

        yield* on(b, RoleStore).update(role.id, { name: "Renamed" })
        assert.deepStrictEqual(yield* roleName(), Option.some("Renamed"), "a rename on the other instance")
        yield* on(b, MemberStore).update(ada.id, role.id, { activestatus: false }, false, undefined)
        assert.strictEqual(yield* activeMembers(), 0, "a deactivation on the other instance")
        yield* on(b, SessionStore).revoke(session.tokenHash)
        assert.isTrue(Option.isNone(yield* found()), "a session revoked on the other instance")
      })
    )
  )

  it.effect(
    "keep at most 4096 rows, a list counting each of its rows, and run a read again once forgotten",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const path = yield* scratchFile
          const connection = yield* Effect.promise(() => openBunSqlite(path))
          yield* Effect.addFinalizer(() => Effect.sync(() => connection.close()))
          const remember = rememberedReads(connection, () => false, true).read
          let ran = 0
          const rowsOf = (count: number) => () => {
            ran += 1
            return Array.from({ length: count }, (_, i) => i)
          }
          remember("big", rowsOf(5000))
          remember("big", rowsOf(5000))
          assert.strictEqual(ran, 2, "a list over the bound is never remembered")
          remember("page", rowsOf(4000))
          remember("page", rowsOf(4000))
          assert.strictEqual(ran, 3, "a list within the bound is")
          remember("other", rowsOf(200))
          remember("page", rowsOf(4000))
          assert.strictEqual(ran, 5, "the next list over the bound forgot the first")
        })
      )
  )

  it.effect("hold one check for a synchronous run, and check again once told this process committed", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const path = yield* scratchFile
        const writer = yield* Effect.promise(() => openBunSqlite(path))
        const reader = yield* Effect.promise(() => openBunSqlite(path))
        yield* Effect.addFinalizer(() =>
          Effect.sync(() => {
            reader.close()
            writer.close()
          })
        )
        writer.exec("PRAGMA journal_mode = WAL")
        writer.exec("CREATE TABLE t (v INTEGER)")
        writer.exec("INSERT INTO t VALUES (1)")
        const remembered = rememberedReads(reader, commitWatch(reader), true)
        const value = () => remembered.read("v", (db) => db.get("SELECT v FROM t")?.v)
        // All in one synchronous run: no request could arrive in it, so one check holds...
        const first = value()
        writer.exec("UPDATE t SET v = 2")
        const stillFirst = value()
        // ...until the writer says it committed.
        remembered.recheck()
        const second = value()
        assert.deepStrictEqual([first, stillFirst, second], [1, 1, 2])
      })
    )
  )
})
