import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { MongoDatabase, mongoDatabaseLayer } from "../../adapters/mongodb/database.ts"
import { mongoStores } from "../../adapters/mongodb/index.ts"
import type { Snapshotted } from "../../adapters/mongodb/session-fences.ts"
import { makeSessionLookup } from "../../adapters/mongodb/session-lookup.ts"
import { MemberStore, RoleStore, SessionLookup, SessionStore } from "../../core/index.ts"
import { memberRecord, newRole, sessionOf } from "../support/contract.ts"
import { mongoUri, scratchDatabase } from "../support/stores.ts"

/**
 * The stores on a scratch database, a connection of the test's own to it (to look at and to write
 * sessions as a process stopped halfway would have left them), and ada signed in.
 */
const signedIn = Effect.gen(function* () {
  const database = yield* scratchDatabase
  const options = { uri: Redacted.make(mongoUri()), database }
  const stores = yield* Layer.build(Layer.orDie(mongoStores(options)))
  const db = Context.get(yield* Layer.build(Layer.orDie(mongoDatabaseLayer(options))), MongoDatabase)
  const ada = yield* Effect.gen(function* () {
    const role = yield* (yield* RoleStore).insert(newRole("staff"))
    const member = memberRecord("ada", { roleId: role.id })
    yield* (yield* MemberStore).insert(member)
    yield* (yield* SessionStore).create(sessionOf("ada-token", member.id))
    return member
  }).pipe(Effect.provide(stores))
  const { tokenHash } = sessionOf("ada-token", ada.id)
  const sessionDocument = () =>
    Effect.promise(() => db.collection<Snapshotted>("sessions").findOne({ _id: tokenHash }))
  const activeNow = Effect.flatMap(SessionLookup, (lookup) => lookup.find(tokenHash)).pipe(
    Effect.map(Option.map((found) => found.member.activestatus)),
    Effect.provide(stores)
  )
  return { ada, db, stores, tokenHash, sessionDocument, activeNow }
})

describe("session snapshots on MongoDB", () => {
  it.effect("a session read in full keeps a snapshot; a change to what it copies takes it away", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const { ada, stores, sessionDocument, activeNow } = yield* signedIn
        assert.deepStrictEqual(yield* activeNow, Option.some(true))
        assert.isDefined((yield* sessionDocument())?.snapshot, "kept after a full read")
        yield* Effect.flatMap(MemberStore, (members) =>
          members.update(ada.id, ada.roleId, { activestatus: false }, false)
        ).pipe(Effect.provide(stores))
        const fenced = yield* sessionDocument()
        assert.isUndefined(fenced?.snapshot, "taken away by the change")
        assert.deepStrictEqual(fenced?.fences, [], "and the fence lifted once it was done")
        assert.deepStrictEqual(yield* activeNow, Option.some(false))
      })
    )
  )

  it.effect("a read that overlaps a change does not keep what it read before the change", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const { ada, db, stores, tokenHash, sessionDocument, activeNow } = yield* signedIn
        // A lookup whose read of the member is overtaken by a change before the lookup keeps a copy.
        const members = Context.get(stores, MemberStore)
        const racing = yield* makeSessionLookup.pipe(
          Effect.provideService(MongoDatabase, db),
          Effect.provideService(
            MemberStore,
            MemberStore.of({
              ...members,
              findById: (id) =>
                Effect.tap(members.findById(id), () =>
                  members.update(ada.id, ada.roleId, { activestatus: false }, false)
                )
            })
          ),
          Effect.provide(stores)
        )
        const read = yield* racing.find(tokenHash)
        assert.deepStrictEqual(
          Option.map(read, (found) => found.member.activestatus),
          Option.some(true),
          "it answers what it read"
        )
        assert.isUndefined((yield* sessionDocument())?.snapshot, "but keeps no copy of it")
        assert.deepStrictEqual(yield* activeNow, Option.some(false))
      })
    )
  )

  it.effect("a fence left up by a process that stopped mid-write keeps every read in full", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const { ada, db, sessionDocument, activeNow } = yield* signedIn
        assert.deepStrictEqual(yield* activeNow, Option.some(true))
        // What a process leaves when it dies after its change reached the membership, before the lift.
        yield* Effect.promise(() =>
          db
            .collection<Snapshotted>("sessions")
            .updateMany(
              { memberId: ada.id },
              { $push: { fences: "dead" }, $inc: { snapshotVersion: 1 }, $unset: { snapshot: "" } }
            )
        )
        yield* Effect.promise(() =>
          db.collection("members").updateOne({ accountId: ada.id }, { $set: { activestatus: false } })
        )
        for (const _ of [1, 2]) {
          assert.deepStrictEqual(yield* activeNow, Option.some(false), "what is stored, not a copy")
          assert.isUndefined((yield* sessionDocument())?.snapshot, "and no copy is kept")
        }
      })
    )
  )
})
