import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { abandonedAfterMs, type Fenced, type Snapshotted } from "../../adapters/mongodb/consistency/fences.ts"
import { sessionFences } from "../../adapters/mongodb/consistency/session-fences.ts"
import { MongoDatabase, mongoDatabaseLayer } from "../../adapters/mongodb/database.ts"
import { mongoStores } from "../../adapters/mongodb/index.ts"
import { makeSessionLookup } from "../../adapters/mongodb/session-lookup.ts"
import { MemberStore, RoleStore, SessionLookup, SessionStore } from "../../core/index.ts"
import { memberRecord, newRole, sessionOf } from "../support/contract.ts"
import { abandonedFence, withReadsOvertaken } from "../support/overtaken-reads.ts"
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
  const membershipFences = () =>
    Effect.promise(() =>
      db
        .collection<Fenced>("members")
        .findOne({ accountId: ada.id })
        .then((document) => document?.fences)
    )
  const activeNow = Effect.flatMap(SessionLookup, (lookup) => lookup.find(tokenHash)).pipe(
    Effect.map(Option.map((found) => found.member.activestatus)),
    Effect.provide(stores)
  )
  /** Another start of the service on the same database: what it does at start, done. */
  const restart = Effect.asVoid(Layer.build(Layer.orDie(mongoStores(options))))
  return { ada, db, stores, tokenHash, sessionDocument, membershipFences, activeNow, restart }
})

describe("session snapshots on MongoDB", () => {
  it.effect("a session read in full keeps a snapshot; a change to what it copies takes it away", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const { ada, stores, sessionDocument, membershipFences, activeNow } = yield* signedIn
        assert.deepStrictEqual(yield* activeNow, Option.some(true))
        assert.isDefined((yield* sessionDocument())?.snapshot, "kept after a full read")
        yield* Effect.flatMap(MemberStore, (members) =>
          members.update(ada.id, ada.roleId, { activestatus: false }, false)
        ).pipe(Effect.provide(stores))
        assert.isUndefined((yield* sessionDocument())?.snapshot, "taken away by the change")
        assert.deepStrictEqual(yield* membershipFences(), [], "and the fence taken down once it was done")
        assert.deepStrictEqual(yield* activeNow, Option.some(false))
        assert.isDefined((yield* sessionDocument())?.snapshot, "kept again from what is stored now")
      })
    )
  )

  it.effect("a read that overlaps a change does not keep what it read before the change", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const { ada, db, stores, tokenHash, sessionDocument, activeNow } = yield* signedIn
        // A lookup whose read of the membership is overtaken by a change before it keeps a copy.
        const change = Context.get(stores, MemberStore).update(
          ada.id,
          ada.roleId,
          { activestatus: false },
          false
        )
        const racingDb = withReadsOvertaken(db, "members", change)
        const racing = yield* makeSessionLookup.pipe(Effect.provideService(MongoDatabase, racingDb))
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

  it.effect("a session begun while a change is under way keeps no copy from before the change", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const { ada, db, stores } = yield* signedIn
        const lookup = Context.get(stores, SessionLookup)
        const late = sessionOf("late-token", ada.id)
        const readLate = Effect.map(
          lookup.find(late.tokenHash),
          Option.map((found) => found.member.activestatus)
        )
        yield* sessionFences(db).ofMembership(
          ada.id,
          ada.organizationId
        )(
          Effect.gen(function* () {
            // Signed in after the fence went up, read in full before the change lands.
            yield* Context.get(stores, SessionStore).create(late)
            assert.deepStrictEqual(yield* readLate, Option.some(true), "what is stored until the change")
            yield* Effect.promise(() =>
              db.collection("members").updateOne({ accountId: ada.id }, { $set: { activestatus: false } })
            )
          })
        )
        assert.deepStrictEqual(yield* readLate, Option.some(false), "the change, not a copy from before it")
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
            .collection<Fenced>("members")
            .updateOne({ accountId: ada.id }, { $push: { fences: { id: "dead", at: new Date() } } })
        )
        yield* Effect.promise(() =>
          db
            .collection<Snapshotted>("sessions")
            .updateMany({ memberId: ada.id }, { $inc: { snapshotVersion: 1 }, $unset: { snapshot: "" } })
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

  it.effect("the next start takes down fences older than any write, and leaves a recent one up", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const { ada, db, membershipFences, activeNow, sessionDocument, restart } = yield* signedIn
        const abandoned = abandonedFence()
        const recent = { id: "recent", at: new Date() }
        yield* Effect.promise(() =>
          db
            .collection<Fenced>("members")
            .updateOne({ accountId: ada.id }, { $push: { fences: { $each: [abandoned, recent] } } })
        )
        yield* restart
        assert.deepStrictEqual(
          (yield* membershipFences())?.map((fence) => fence.id),
          ["recent"]
        )
        assert.deepStrictEqual(yield* activeNow, Option.some(true))
        assert.isUndefined((yield* sessionDocument())?.snapshot, "no copy while one stands")
      })
    )
  )

  it.effect("a running process takes down a fence older than any write within five minutes", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const { ada, db, membershipFences } = yield* signedIn
        const abandoned = abandonedFence()
        yield* Effect.promise(() =>
          db.collection<Fenced>("members").updateOne({ accountId: ada.id }, { $push: { fences: abandoned } })
        )
        yield* TestClock.adjust(abandonedAfterMs / 2)
        let left = yield* membershipFences()
        for (let tries = 0; tries < 500 && (left?.length ?? 0) > 0; tries++) {
          yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))
          left = yield* membershipFences()
        }
        assert.deepStrictEqual(left, [])
      })
    )
  )
})
