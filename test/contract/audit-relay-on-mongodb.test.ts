import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { type Db, MongoClient, MongoNetworkError } from "mongodb"
import {
  type AuditEntryDocument,
  toAuditDocument
} from "../../adapters/mongodb/consistency/audit-document.ts"
import { relayEntry } from "../../adapters/mongodb/consistency/relay.ts"
import { relayBatches } from "../../adapters/mongodb/consistency/relay-batches.ts"
import { mongoStores } from "../../adapters/mongodb/index.ts"
import { mongoStoresStoppedBeforeRelaying } from "../../adapters/mongodb/mongo-stores.ts"
import { AuditEntry, AuditEntryId, AuditLog, defaultOrganizationId, MemberStore } from "../../core/index.ts"
import { at, memberRecord, withRoles } from "../support/contract.ts"
import { mongoUri } from "../support/stores.ts"

const entryFor = (id: string, action: AuditEntry["action"], memberId: string) =>
  new AuditEntry({
    id: AuditEntryId.make(id),
    at: at(1),
    action,
    actor: { kind: "master" },
    target: { type: "member", id: memberId },
    changes: { username: [null, "ada"] },
    requestId: "req-1",
    organizationId: defaultOrganizationId
  })

/** One run of the service on `database`: its stores, opened at start and closed at the end. */
const process_ = (database: string) =>
  withRoles(Layer.orDie(mongoStores({ uri: Redacted.make(mongoUri()), database })))

/** A run that stops between its writes and their relay (killed): what it wrote stays pending. */
const stoppedBeforeRelaying = (database: string) =>
  withRoles(Layer.orDie(mongoStoresStoppedBeforeRelaying({ uri: Redacted.make(mongoUri()), database })))

/** `use` of the database on a connection of the test's own, to look at what the stores left. */
const onDatabase = <A>(database: string, use: (db: Db) => Promise<A>) =>
  Effect.promise(async () => {
    const client = new MongoClient(mongoUri())
    try {
      return await use(client.db(database))
    } finally {
      await client.close()
    }
  })

/** The ids of the entries in the record, in order. */
const recordedIds = (db: Db) =>
  db
    .collection<{ _id: string }>("audit_events")
    .find()
    .sort({ _id: 1 })
    .toArray()
    .then((documents) => documents.map((document) => document._id))

/** The database on a connection of the test's own, open while the scope lasts: to act as a process would. */
const connectedTo = (database: string) =>
  Effect.acquireRelease(
    Effect.promise(() => new MongoClient(mongoUri()).connect()),
    (client) => Effect.promise(() => client.close())
  ).pipe(Effect.map((client) => client.db(database)))

const scratch = Effect.acquireRelease(
  Effect.sync(() => `roster_test_${crypto.randomUUID().replaceAll("-", "")}`),
  (database) => onDatabase(database, (db) => db.dropDatabase())
)

describe("the audit relay on MongoDB", () => {
  it.effect(
    "an entry left pending by a process that stopped after the change is in the record after restart, once",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const database = yield* scratch
          const ada = memberRecord("ada")
          const bob = memberRecord("bob")
          const added = entryFor("aud_1", "member.added", ada.id)
          const removed = entryFor("aud_2", "member.removed", bob.id)
          // The first process writes the changes with their entries, then stops before relaying them.
          yield* Effect.gen(function* () {
            const members = yield* MemberStore
            yield* members.insert(ada, added)
            yield* members.insert(bob)
            yield* members.remove(bob.id, removed)
            assert.isTrue(Option.isNone(yield* members.findById(bob.id)), "a removed member is gone at once")
            assert.deepStrictEqual(yield* (yield* AuditLog).page({}, 10), [], "nothing relayed yet")
          }).pipe(Effect.provide(stoppedBeforeRelaying(database)))
          // Two restarts: the relay runs at each start; the second finds nothing left to move.
          for (const run of [1, 2]) {
            yield* Effect.gen(function* () {
              const entries = yield* (yield* AuditLog).page({}, 10)
              assert.deepStrictEqual(
                entries.map((entry) => entry.id),
                ["aud_2", "aud_1"],
                `run ${run}: each entry once`
              )
              assert.deepStrictEqual(entries[1], added)
              // The removed member's names are free again.
              yield* (yield* MemberStore).insert(memberRecord("bob", { id: `bob-${run}` as never }))
              yield* (yield* MemberStore).remove(`bob-${run}` as never)
            }).pipe(Effect.provide(process_(database)))
          }
          const raw = yield* onDatabase(database, (db) => db.collection("members").find().toArray())
          assert.deepStrictEqual(
            raw.map((document) => [document.accountId, document.outbox ?? [], document.removed ?? false]),
            [[ada.id, [], false]]
          )
        })
      )
  )

  it.effect(
    "a store relays what it wrote: its own process reads it at once, and it is off its document after",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const database = yield* scratch
          const ada = memberRecord("ada")
          const added = entryFor("aud_1", "member.added", ada.id)
          const ghost = entryFor("aud_9", "member.removed", "nobody")
          yield* Effect.gen(function* () {
            const members = yield* MemberStore
            yield* members.insert(ada, added)
            // An entry no write carried (its write's condition failed) is not moved.
            assert.isTrue(Option.isNone(yield* members.remove("nobody" as never, ghost)))
            const log = yield* AuditLog
            assert.deepStrictEqual(
              (yield* log.page({}, 10)).map((entry) => entry.id),
              ["aud_1"]
            )
          }).pipe(Effect.provide(process_(database)))
          const outbox = yield* onDatabase(database, (db) =>
            db
              .collection("members")
              .findOne({ accountId: ada.id })
              .then((document) => document?.outbox)
          )
          assert.deepStrictEqual(outbox, [])
        })
      )
  )

  it.effect("a new account's mark goes with its entry's relay, but not a mark set again since", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const database = yield* scratch
        const ada = memberRecord("ada")
        const grace = memberRecord("grace")
        const marks = () =>
          onDatabase(database, (db) =>
            db
              .collection<{ _id: string; pendingSince?: Date }>("accounts")
              .find()
              .sort({ _id: 1 })
              .toArray()
              .then((accounts) =>
                accounts.map((account) => [account._id, account.pendingSince !== undefined])
              )
          )
        const remarked = new Date(Date.UTC(2026, 0, 1))
        yield* Effect.gen(function* () {
          const members = yield* MemberStore
          yield* members.insert(ada, entryFor("aud_1", "member.added", ada.id))
          yield* members.insert(grace, entryFor("aud_2", "member.added", grace.id))
          assert.deepStrictEqual(yield* marks(), [
            [ada.id, true],
            [grace.id, true]
          ])
          // Another change of Grace's account marks it again before the relay: that mark stays.
          yield* onDatabase(database, (db) =>
            db
              .collection<{ _id: string }>("accounts")
              .updateOne({ _id: grace.id }, { $set: { pendingSince: remarked } })
          )
          assert.lengthOf(yield* (yield* AuditLog).page({}, 10), 2)
        }).pipe(Effect.provide(process_(database)))
        assert.deepStrictEqual(yield* marks(), [
          [ada.id, false],
          [grace.id, true]
        ])
      })
    )
  )

  it.effect(
    "relayed entries are moved into the record and off their documents in the next second's batch",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const database = yield* scratch
          const outboxes = onDatabase(database, (db) =>
            db
              .collection("members")
              .find()
              .sort({ accountId: 1 })
              .toArray()
              .then((documents) =>
                documents.map((document) =>
                  (document.outbox ?? []).map((entry: { _id: string }) => entry._id)
                )
              )
          )
          const recorded = onDatabase(database, recordedIds)
          yield* Effect.gen(function* () {
            const members = yield* MemberStore
            const log = yield* AuditLog
            for (const [name, id] of [
              ["ada", "aud_1"],
              ["bob", "aud_2"]
            ] as const) {
              const member = memberRecord(name)
              const entry = entryFor(id, "member.added", member.id)
              yield* members.insert(member, entry)
            }
            assert.deepStrictEqual(
              yield* outboxes,
              [["aud_1"], ["aud_2"]],
              "queued, still on their documents"
            )
            assert.deepStrictEqual(yield* recorded, [], "and not yet in the record")
            yield* TestClock.adjust("1 second")
            let left = yield* outboxes
            for (let tries = 0; tries < 500 && left.some((ids) => ids.length > 0); tries++) {
              yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))
              left = yield* outboxes
            }
            assert.deepStrictEqual(left, [[], []], "taken off by the batch")
            assert.deepStrictEqual(yield* recorded, ["aud_1", "aud_2"], "once copied into the record")
            assert.deepStrictEqual(
              (yield* log.page({}, 10)).map((entry) => entry.id),
              ["aud_2", "aud_1"]
            )
          }).pipe(Effect.provide(process_(database)))
        })
      )
  )

  it.effect(
    "the relay that fills a batch of fifty clears it, with no second gone by",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const database = yield* scratch
          const pendingCount = onDatabase(database, (db) =>
            db.collection("members").countDocuments({ "outbox.0": { $exists: true } })
          )
          yield* Effect.gen(function* () {
            const members = yield* MemberStore
            for (let i = 0; i < 50; i++) {
              const member = memberRecord(`member${i}`)
              const entry = entryFor(`aud_${i}`, "member.added", member.id)
              yield* members.insert(member, entry)
              if (i === 48) assert.strictEqual(yield* pendingCount, 49, "queued, not cleared")
            }
            assert.strictEqual(yield* pendingCount, 0, "cleared by the fiftieth")
          }).pipe(Effect.provide(process_(database)))
        })
      ),
    { timeout: 60_000 }
  )

  it.effect(
    "a batch the store refuses, or breaks off, stays queued and on its documents; the next flush moves it",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const database = yield* scratch
          const ada = memberRecord("ada")
          const added = entryFor("aud_1", "member.added", ada.id)
          yield* Effect.flatMap(MemberStore, (members) => members.insert(ada, added)).pipe(
            Effect.provide(stoppedBeforeRelaying(database))
          )
          const db = yield* connectedTo(database)
          // The first copy into the record breaks off, as a connection reset would; the second is
          // answered with a document refused for another reason than being there already.
          const answers: Array<() => Promise<unknown>> = [
            () => Promise.reject(new MongoNetworkError("connection reset")),
            () => Promise.resolve({ ok: 1, n: 0, writeErrors: [{ index: 0, code: 2, errmsg: "bad value" }] })
          ]
          const refusing = new Proxy(db, {
            get: (target, property) => {
              const answer = property === "command" ? answers.shift() : undefined
              return answer ?? Reflect.get(target, property, target)
            }
          })
          const batches = relayBatches(refusing)
          const stored = yield* Effect.promise(() =>
            db
              .collection<{ _id: string; outbox: Array<AuditEntryDocument> }>("members")
              .findOne({ accountId: ada.id })
          )
          const entry = stored?.outbox[0]
          assert.isDefined(entry)
          const waiting = {
            collection: "members",
            _id: stored?._id ?? "",
            entry: entry as AuditEntryDocument
          }
          yield* batches.later(waiting)
          const state = () =>
            Effect.promise(async () => ({
              recorded: await db.collection("audit_events").countDocuments(),
              pending: (await db.collection("members").findOne({ accountId: ada.id }))?.outbox.length
            }))
          for (const refusal of ["broken off", "refused"]) {
            const refused = yield* Effect.flip(batches.moveAll)
            assert.strictEqual(refused._tag, "StoreUnavailable", refusal)
            assert.deepStrictEqual(yield* state(), { recorded: 0, pending: 1 }, `${refusal}: nothing lost`)
          }
          yield* batches.flush
          assert.deepStrictEqual(yield* state(), { recorded: 1, pending: 0 }, "moved by the next flush")
          // Moved again beside one not moved yet: the first stays once, the second is copied.
          const later = { ...waiting, entry: { ...waiting.entry, _id: "aud_2" } }
          yield* batches.later(waiting)
          yield* batches.later(later)
          yield* batches.moveAll
          assert.deepStrictEqual(yield* Effect.promise(() => recordedIds(db)), ["aud_1", "aud_2"])
        })
      )
  )

  it.effect(
    "a removed document's entries all go into the record as it is deleted, those still queued too",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const database = yield* scratch
          const ada = memberRecord("ada")
          const updated = entryFor("aud_1", "member.updated", ada.id)
          const removed = entryFor("aud_2", "member.removed", ada.id)
          yield* Effect.flatMap(MemberStore, (members) =>
            Effect.andThen(
              members.insert(ada),
              members.update(ada.id, ada.roleId, { activestatus: false }, false, updated)
            )
          ).pipe(Effect.provide(stoppedBeforeRelaying(database)))
          const db = yield* connectedTo(database)
          // A process whose batch never runs: the update's entry waits in its queue, then the member goes.
          const batches = relayBatches(db)
          yield* relayEntry(db, toAuditDocument(updated), batches)
          yield* Effect.promise(() =>
            db
              .collection("members")
              .updateOne(
                { accountId: ada.id },
                { $set: { removed: true }, $push: { outbox: toAuditDocument(removed) as never } }
              )
          )
          yield* relayEntry(db, toAuditDocument(removed), batches)
          const recorded = yield* Effect.promise(() => recordedIds(db))
          assert.deepStrictEqual(recorded, ["aud_1", "aud_2"])
          assert.strictEqual(yield* Effect.promise(() => db.collection("members").countDocuments()), 0)
        })
      )
  )

  it.effect("a change's entry left pending by a broken connection is found by its request's key", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const database = yield* scratch
        const ada = memberRecord("ada")
        const added = new AuditEntry({ ...entryFor("aud_1", "member.added", ada.id), requestKey: "digest-1" })
        yield* Effect.gen(function* () {
          yield* (yield* MemberStore).insert(ada, added)
          const log = yield* AuditLog
          assert.deepStrictEqual(yield* log.page({}, 10), [], "not relayed: pending on the member")
          assert.deepStrictEqual(yield* log.changeOfRequest("digest-1"), Option.some(added))
          assert.isTrue(Option.isNone(yield* log.changeOfRequest("digest-2")))
          assert.deepStrictEqual(
            (yield* log.page({}, 10)).map((entry) => entry.id),
            ["aud_1"],
            "moved, once"
          )
        }).pipe(Effect.provide(stoppedBeforeRelaying(database)))
      })
    )
  )
})
