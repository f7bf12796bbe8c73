import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Layer, Redacted } from "effect"
import { liftAbandonedFences } from "../../adapters/mongodb/consistency/abandoned-fences.ts"
import type { MembershipDocument } from "../../adapters/mongodb/consistency/account-documents.ts"
import type { Fenced } from "../../adapters/mongodb/consistency/fences.ts"
import { MongoDatabase, mongoDatabaseLayer } from "../../adapters/mongodb/database.ts"
import { mongoStores } from "../../adapters/mongodb/index.ts"
import { makeMemberStore } from "../../adapters/mongodb/member-store.ts"
import { MemberStore } from "../../core/index.ts"
import { memberRecord, valueOf, withRoles } from "../support/contract.ts"
import {
  abandonedFence,
  once,
  withManyWritesOvertaken,
  withWritesOvertaken
} from "../support/overtaken-reads.ts"
import { mongoUri, scratchDatabase } from "../support/stores.ts"

/** The stores on a scratch database, a connection of the test's own to it, and Ada, a member. */
const ada = Effect.gen(function* () {
  const database = yield* scratchDatabase
  const options = { uri: Redacted.make(mongoUri()), database }
  const stores = yield* Layer.build(withRoles(Layer.orDie(mongoStores(options))))
  const db = Context.get(yield* Layer.build(Layer.orDie(mongoDatabaseLayer(options))), MongoDatabase)
  const record = memberRecord("ada")
  const members = Context.get(stores, MemberStore)
  yield* members.insert(record)
  const membership = () =>
    Effect.promise(() =>
      db.collection<MembershipDocument & Fenced>("members").findOne({ accountId: record.id })
    )
  return { db, members, id: record.id, membership }
})

describe("copies of an account on its memberships, on MongoDB", () => {
  it.effect("of two changes ending in the other order, the later's copy stays", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const { db, members, id, membership } = yield* ada
        // The rename's write is made, then an e-mail change runs whole before the rename copies.
        const changeEmail = once(members.updateAccount(id, { email: "ada@lovelace.example" }))
        const racing = yield* makeMemberStore.pipe(
          Effect.provideService(MongoDatabase, withWritesOvertaken(db, "accounts", changeEmail.change))
        )
        yield* racing.updateAccount(id, { username: "lovelace" })
        assert.isTrue(changeEmail.ran())
        const seen = valueOf(yield* members.findById(id))
        assert.deepStrictEqual([seen.username, seen.email], ["lovelace", "ada@lovelace.example"])
        const copy = yield* membership()
        assert.strictEqual(copy?.accountVersion, 2, "the copy of the later change")
        assert.deepStrictEqual(copy?.fences, [], "and every fence down")
      })
    )
  )

  it.effect("a membership made while a change of its account is under way takes the change", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const { db, id, membership } = yield* ada
        const elsewhere = `org-elsewhere/${id}`
        // Ada joins another organisation once the change's fence is up on her membership, and
        // copies her account as it was before the change (read before its write).
        const joinElsewhere = once(
          Effect.promise(async () => {
            const here = await db.collection<MembershipDocument>("members").findOne({ accountId: id })
            if (here === null) return
            await db
              .collection<MembershipDocument>("members")
              .insertOne({ ...here, _id: elsewhere, organizationId: "org-elsewhere", fences: [] } as never)
          })
        )
        const racing = yield* makeMemberStore.pipe(
          Effect.provideService(MongoDatabase, withManyWritesOvertaken(db, "members", joinElsewhere.change))
        )
        yield* racing.updateAccount(id, { username: "lovelace" })
        assert.isTrue(joinElsewhere.ran())
        const copy = yield* Effect.promise(() =>
          db.collection<MembershipDocument & Fenced>("members").findOne({ _id: elsewhere })
        )
        assert.deepStrictEqual([copy?.username, copy?.accountVersion], ["lovelace", 1])
        const own = yield* membership()
        assert.deepStrictEqual([own?.username, own?.fences], ["lovelace", []])
      })
    )
  )

  it.effect("a change is copied with its version, and its fence taken down", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const { members, id, membership } = yield* ada
        yield* members.updateAccount(id, { username: "augusta" })
        yield* members.setAccountStatus(id, false)
        const copy = yield* membership()
        assert.deepStrictEqual(
          [copy?.username, copy?.accountActiveStatus, copy?.accountVersion, copy?.fences],
          ["augusta", false, 2, []]
        )
      })
    )
  )

  it.effect("a fence a stopped change left is taken down with the account copied again", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const { db, id, membership } = yield* ada
        // What a process that stopped between the account's write and its copy leaves.
        const abandoned = abandonedFence()
        yield* Effect.promise(() =>
          db.collection<Fenced>("members").updateOne({ accountId: id }, { $push: { fences: abandoned } })
        )
        yield* Effect.promise(() =>
          db
            .collection<{ _id: string }>("accounts")
            .updateOne(
              { _id: id },
              { $set: { username: "augusta", usernameKey: "augusta" }, $inc: { version: 1 } }
            )
        )
        yield* liftAbandonedFences(db)
        const copy = yield* membership()
        assert.deepStrictEqual([copy?.username, copy?.accountVersion, copy?.fences], ["augusta", 1, []])
      })
    )
  )
})
