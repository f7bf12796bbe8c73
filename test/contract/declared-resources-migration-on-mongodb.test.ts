import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import {
  AccountTokenStore,
  ApiKeyLookup,
  ApiKeyStore,
  MemberId,
  MfaStore,
  TokenHash
} from "../../core/index.ts"
import { scratch, storesOn, withClient } from "../support/mongo-scratch.ts"

type Stored = { _id: string } & Record<string, unknown>

const at = new Date(Date.UTC(2026, 5, 1))
const later = new Date(Date.UTC(2099, 0, 1))

/**
 * What version 11 stored for the resources that became declarations: a second factor inside its
 * account's document, an API key under indexes of other names, a token with fields it lacked then.
 */
const writeEarlierShape = (database: string) =>
  withClient(async (client) => {
    const db = client.db(database)
    await db.collection("api_keys").createIndex({ lookup: 1 }, { name: "lookup_unique", unique: true })
    await db.collection<Stored>("accounts").insertOne({
      _id: "m-ada",
      username: "ada",
      usernameKey: "ada",
      email: "ada@example.com",
      passwordHash: "$scrypt$x",
      accountActiveStatus: true,
      accountEpoch: 0,
      createdAt: at,
      mfa: { secret: "plain.JBSWY3DPEHPK3PXP", pending: null, lastStep: 7, recoveryCodes: ["a".repeat(64)] }
    })
    await db.collection<Stored>("api_keys").insertOne({
      _id: "key_old",
      organizationId: "default",
      name: "Sync",
      lookup: "0123456789abcdef",
      start: "rk_0123456",
      permissions: [1],
      createdBy: { kind: "master" },
      createdAt: at,
      expiresAt: null,
      lastUsedAt: null,
      secretHash: "f".repeat(64),
      previous: null
    })
    await db.collection<Stored>("account_tokens").insertOne({
      _id: "m-ada/password_reset",
      tokenHash: "e".repeat(64),
      purpose: "password_reset",
      accountId: "m-ada",
      organizationId: "default",
      email: "ada@example.com",
      createdAt: at,
      expiresAt: later
    })
  })

describe("the declared resources' documents of version 11, on MongoDB", () => {
  it.effect("are read as their kit keeps them: the second factor moved out of its account, once", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const database = yield* scratch
        yield* writeEarlierShape(database)
        const [first] = yield* Effect.all(
          [Layer.build(storesOn(database)), Layer.build(storesOn(database))],
          {
            concurrency: 2
          }
        )
        yield* Effect.gen(function* () {
          const factor = Option.getOrThrow(yield* (yield* MfaStore).find(MemberId.make("m-ada")))
          assert.deepStrictEqual(
            [factor.secret, factor.lastStep, factor.recoveryCodes],
            ["plain.JBSWY3DPEHPK3PXP", 7, ["a".repeat(64)]]
          )
          const key = Option.getOrThrow(
            yield* (yield* ApiKeyStore).findByLookup(ApiKeyLookup.make("0123456789abcdef"))
          )
          assert.strictEqual(key.id, "key_old")
          const token = Option.getOrThrow(
            yield* (yield* AccountTokenStore).find("password_reset", TokenHash.make("e".repeat(64)))
          )
          assert.deepStrictEqual(
            [token.triesLeft, token.sessionEpoch],
            [1, -1],
            "what it lacked, as it was meant"
          )
        }).pipe(Effect.provide(first))
        const state = yield* withClient(async (client) => {
          const db = client.db(database)
          const account = await db.collection<Stored>("accounts").findOne({ _id: "m-ada" })
          const factors = await db.collection<Stored>("mfa_factors").countDocuments({})
          const keyIndexes = (await db.collection("api_keys").indexes()).map((index) => index.name)
          return { account, factors, keyIndexes }
        })
        assert.notProperty(state.account, "mfa")
        assert.strictEqual(state.factors, 1, "one factor, however many instances started")
        assert.notInclude(state.keyIndexes, "lookup_unique")
        assert.include(state.keyIndexes, "unique_lookup")
      })
    )
  )
})
