import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import { MongoClient } from "mongodb"
import { mongoStores } from "../../adapters/mongodb/index.ts"
import { AuditEntry, AuditEntryId, AuditLog, defaultOrganizationId, MemberStore } from "../../core/index.ts"
import { at, memberRecord } from "../support/contract.ts"
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
const process_ = (database: string) => Layer.orDie(mongoStores({ uri: Redacted.make(mongoUri()), database }))

const scratch = Effect.acquireRelease(
  Effect.sync(() => `roster_test_${crypto.randomUUID().replaceAll("-", "")}`),
  (database) =>
    Effect.promise(async () => {
      const client = new MongoClient(mongoUri())
      await client.db(database).dropDatabase()
      await client.close()
    })
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
          }).pipe(Effect.provide(process_(database)))
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
          const raw = yield* Effect.promise(async () => {
            const client = new MongoClient(mongoUri())
            const documents = await client.db(database).collection("members").find().toArray()
            await client.close()
            return documents
          })
          assert.deepStrictEqual(
            raw.map((document) => [document.accountId, document.outbox ?? [], document.removed ?? false]),
            [[ada.id, [], false]]
          )
        })
      )
  )

  it.effect("the relay after a write moves its entry at once and then takes it off the document", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const database = yield* scratch
        const ada = memberRecord("ada")
        const added = entryFor("aud_1", "member.added", ada.id)
        const ghost = entryFor("aud_9", "member.updated", ada.id)
        yield* Effect.gen(function* () {
          yield* (yield* MemberStore).insert(ada, added)
          const log = yield* AuditLog
          yield* log.relay(added)
          yield* log.relay(added)
          // An entry no write carried (its write's condition failed) is not moved.
          yield* log.relay(ghost)
          assert.deepStrictEqual(
            (yield* log.page({}, 10)).map((entry) => entry.id),
            ["aud_1"]
          )
          yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 300)))
        }).pipe(Effect.provide(process_(database)))
        const outbox = yield* Effect.promise(async () => {
          const client = new MongoClient(mongoUri())
          const document = await client.db(database).collection("members").findOne({ accountId: ada.id })
          await client.close()
          return document?.outbox
        })
        assert.deepStrictEqual(outbox, [])
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
        }).pipe(Effect.provide(process_(database)))
      })
    )
  )
})
