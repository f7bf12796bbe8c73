import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { accountChanges } from "../../adapters/mongodb/consistency/account-changes.ts"
import { MemberId, MemberStore } from "../../core/index.ts"
import { valueOf } from "../support/contract.ts"
import { scratch, storesOn, withClient } from "../support/mongo-scratch.ts"

const longAgo = new Date(Date.now() - 3_600_000)
const at = new Date(Date.UTC(2026, 0, 1))

/**
 * What a process that died halfway through account changes leaves: an account renamed whose
 * membership still shows the old name, and a new account whose membership was never written.
 */
const writeHalfDone = (database: string) =>
  withClient(async (client) => {
    const db = client.db(database)
    const account = (id: string, username: string) => ({
      _id: id,
      username,
      usernameKey: username,
      email: `${username}@example.com`,
      passwordHash: "$scrypt$ln=10,r=8,p=1$c2FsdA$aGFzaA",
      accountActiveStatus: true,
      createdAt: at,
      pendingSince: longAgo
    })
    await db
      .collection<{ _id: string }>("accounts")
      .insertMany([account("m-ada", "lovelace"), account("m-orphan", "orphan")])
    await db.collection<Record<string, unknown> & { _id: string }>("members").insertOne({
      _id: "default/m-ada",
      accountId: "m-ada",
      organizationId: "default",
      username: "ada",
      usernameKey: "ada",
      email: "ada@example.com",
      accountActiveStatus: true,
      accountEpoch: 0,
      membershipEpoch: 0,
      activestatus: true,
      roleId: 1,
      createdAt: at
    })
  })

describe("accounts a stopped process left pending, on MongoDB", () => {
  it.effect("are finished at start: copies brought in step, an account without a membership deleted", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const database = yield* scratch
        yield* writeHalfDone(database)
        yield* Effect.gen(function* () {
          const members = yield* MemberStore
          const ada = valueOf(yield* members.findById(MemberId.make("m-ada")))
          assert.deepStrictEqual([ada.username, ada.email], ["lovelace", "lovelace@example.com"])
          assert.lengthOf(yield* members.page({ q: "love" }, 10), 1, "found by the account's name")
          assert.isTrue(Option.isNone(yield* members.findAccount(MemberId.make("m-orphan"))))
          assert.isTrue(Option.isNone(yield* members.findByLogin("orphan")), "its name is free again")
        }).pipe(Effect.provide(storesOn(database)))
        const pending = yield* withClient((client) =>
          client
            .db(database)
            .collection("accounts")
            .countDocuments({ pendingSince: { $exists: true } })
        )
        assert.strictEqual(pending, 0)
      })
    )
  )

  it.effect(
    "a change settles at once: copied to the memberships, or the account deleted when none holds it",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const database = yield* scratch
          yield* writeHalfDone(database)
          const after = yield* withClient(async (client) => {
            const db = client.db(database)
            const { changeAccountFirst } = accountChanges(db)
            const rename = (id: string, username: string) =>
              Effect.runPromise(
                changeAccountFirst(id, { $set: { username, usernameKey: username } }, undefined)
              )
            // Ada's account is held by her membership; the orphan's membership left while it changed.
            await rename("m-ada", "augusta")
            await rename("m-orphan", "renamed")
            return {
              membership: await db.collection("members").findOne({ _id: "default/m-ada" } as object),
              accounts: await db.collection("accounts").find().toArray()
            }
          })
          assert.strictEqual(after.membership?.username, "augusta", "the copy follows the change")
          assert.deepStrictEqual(
            after.accounts.map((account) => [account._id, account.username]),
            [["m-ada", "augusta"]],
            "the orphan is deleted"
          )
        })
      )
  )
})
