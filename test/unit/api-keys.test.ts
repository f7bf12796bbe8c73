import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Exit, Option, Redacted, Schema } from "effect"
import { TestClock } from "effect/testing"
import {
  ApiKeyId,
  ApiKeyLookup,
  ApiKeyRecord,
  ApiKeyStore,
  AuditLog,
  authenticate,
  CreateApiKeyInput,
  changeOwnPassword,
  createApiKey,
  ExpiryPassed,
  Forbidden,
  getApiKey,
  type IdGenerator,
  ListApiKeysInput,
  listApiKeys,
  logOut,
  NotFound,
  PermissionId,
  type Principal,
  type ProductPermissionStore,
  RotateApiKeyInput,
  revokeApiKey,
  rotateApiKey,
  StoreWrites,
  type TokenIssuer,
  type Unauthenticated,
  UnknownPermission,
  UpdateApiKeyInput,
  updateApiKey
} from "../../core/index.ts"
import { actorWith, master, provideRoster, refusal } from "../support/roster.ts"

const ids = (...n: Array<number>) => n.map((id) => PermissionId.make(id))
const bearer = (key: Redacted.Redacted<string> | string) =>
  Option.some(typeof key === "string" ? Redacted.make(key) : key)
const reasonOf = (error: unknown) => (error as Unauthenticated)?.reason
const forbiddenReason = (error: unknown) =>
  error instanceof Forbidden ? error.reason : `not forbidden: ${error}`
/** Each attempt's refusal, in order. */
const refusals = (
  attempts: ReadonlyArray<
    Effect.Effect<unknown, unknown, ApiKeyStore | IdGenerator | TokenIssuer | ProductPermissionStore>
  >
) => Effect.forEach(attempts, (attempt) => Effect.map(refusal(attempt), forbiddenReason))
const stored = (id: ApiKeyId) =>
  Effect.flatMap(ApiKeyStore, (store) => store.find(id)).pipe(Effect.map(Option.getOrThrow))
const entriesOf = (action: "api_key.created" | "api_key.updated" | "api_key.rotated" | "api_key.revoked") =>
  Effect.flatMap(AuditLog, (log) => log.page({ action }, 50))
/** Lets what authenticating forked (the minute of use) run. */
const settle = Effect.forEach([1, 2, 3, 4, 5], () => Effect.yieldNow, { discard: true })

describe("creating an API key", () => {
  it.effect("names permissions by id or key, sorted once each; shows the key once, keeping its digest", () =>
    Effect.gen(function* () {
      const { apiKey, key } = yield* createApiKey(master, {
        name: "Sync",
        permissions: ["audit.read", ...ids(1, 8, 1)]
      })
      const text = Redacted.value(key)
      assert.match(text, /^rk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/)
      assert.deepStrictEqual(apiKey.permissions, ids(1, 8))
      assert.strictEqual(apiKey.start, text.slice(0, 10))
      assert.deepStrictEqual(apiKey.createdBy, { kind: "master" })
      assert.isNull(apiKey.expiresAt)
      assert.isNull(apiKey.lastUsedAt)
      const record = yield* stored(apiKey.id)
      assert.strictEqual(record.lookup, text.slice(3, 19))
      assert.notInclude(JSON.stringify(record), text.slice(20))
      const [entry] = yield* entriesOf("api_key.created")
      assert.deepStrictEqual(entry?.target, { type: "api_key", id: apiKey.id })
      assert.deepStrictEqual(entry?.changes, {
        name: [null, "Sync"],
        permissions: [null, ids(1, 8)],
        expiresAt: [null, null]
      })
    }).pipe(provideRoster())
  )

  it.effect("holds only catalog permissions the creator holds, and an expiry in the future", () =>
    Effect.gen(function* () {
      const { principal: keeper } = yield* actorWith("keeper", ["team.read", "organization.api_keys.write"])
      const { principal: reader } = yield* actorWith("reader", ["team.read"])
      const beyond = yield* refusal(
        createApiKey(keeper, { name: "x", permissions: [...ids(1, 2), "audit.read"] })
      )
      assert.strictEqual(forbiddenReason(beyond), "grant_exceeds_own")
      assert.deepStrictEqual((beyond as Forbidden).permissionIds, ids(2, 8))
      const unknown = yield* refusal(
        createApiKey(master, { name: "x", permissions: [PermissionId.make(99)] })
      )
      assert.instanceOf(unknown, UnknownPermission)
      assert.strictEqual((unknown as UnknownPermission).permission, 99)
      assert.strictEqual(
        forbiddenReason(yield* refusal(createApiKey(reader, { name: "x", permissions: [] }))),
        "missing_permission"
      )
      const now = yield* DateTime.now
      for (const expiresAt of [now, DateTime.subtract(now, { seconds: 1 })]) {
        assert.instanceOf(
          yield* refusal(createApiKey(master, { name: "x", permissions: [], expiresAt })),
          ExpiryPassed
        )
      }
      const later = DateTime.add(now, { seconds: 1 })
      const made = yield* createApiKey(keeper, { name: "Mine", permissions: ids(1), expiresAt: later })
      const [entry] = yield* entriesOf("api_key.created")
      assert.deepStrictEqual(entry?.changes.expiresAt, [null, DateTime.formatIso(later)])
      assert.deepStrictEqual(made.apiKey.createdBy, {
        kind: "member",
        id: (keeper as { member: { id: string } }).member.id
      })
      assert.isTrue(made.apiKey.expiresAt !== null && DateTime.Equivalence(made.apiKey.expiresAt, later))
      assert.lengthOf(yield* entriesOf("api_key.created"), 1, "nothing refused was made")
    }).pipe(provideRoster())
  )
})

describe("authenticating with an API key", () => {
  it.effect("is the key acting in its organisation; anything else with its prefix is one refusal", () =>
    Effect.gen(function* () {
      const { apiKey, key } = yield* createApiKey(master, { name: "Sync", permissions: ids(1) })
      const principal = yield* authenticate(bearer(key))
      assert.deepStrictEqual(principal, {
        _tag: "ApiKey",
        keyId: apiKey.id,
        name: "Sync",
        organizationId: "default",
        permissionIds: ids(1)
      } as unknown as Principal)
      const text = Redacted.value(key)
      const other = text.slice(0, 20) + (text[20] === "A" ? "B" : "A") + text.slice(21)
      for (const wrong of [
        "rk_",
        "rk_short_secret",
        `rk_ffffffffffffffff${text.slice(19)}`,
        other,
        `${text}=`
      ]) {
        assert.strictEqual(reasonOf(yield* refusal(authenticate(bearer(wrong)))), "invalid", wrong)
      }
    }).pipe(provideRoster())
  )

  it.effect("notes the minute of use apart from the request: its writes are none of the request's", () =>
    Effect.gen(function* () {
      const { apiKey, key } = yield* createApiKey(master, { name: "Sync", permissions: [] })
      const ledger = { applied: false, uncertain: false }
      yield* authenticate(bearer(key)).pipe(Effect.provideService(StoreWrites, ledger))
      yield* settle
      assert.isNotNull((yield* stored(apiKey.id)).lastUsedAt)
      assert.deepStrictEqual(ledger, { applied: false, uncertain: false })
    }).pipe(provideRoster())
  )

  it.effect("stops at the expiry, and notes the minute of use once a minute", () =>
    Effect.gen(function* () {
      const now = yield* DateTime.now
      const { apiKey, key } = yield* createApiKey(master, {
        name: "Brief",
        permissions: [],
        expiresAt: DateTime.add(now, { minutes: 3 })
      })
      yield* TestClock.adjust("30 seconds")
      yield* authenticate(bearer(key))
      yield* settle
      const first = (yield* stored(apiKey.id)).lastUsedAt
      assert.isTrue(first !== null && DateTime.Equivalence(first, now), "to the minute")
      yield* TestClock.adjust("1 minute")
      yield* authenticate(bearer(key))
      yield* settle
      const second = (yield* stored(apiKey.id)).lastUsedAt
      assert.isTrue(second !== null && DateTime.Equivalence(second, DateTime.add(now, { minutes: 1 })))
      yield* TestClock.adjust("90 seconds")
      assert.strictEqual(reasonOf(yield* refusal(authenticate(bearer(key)))), "invalid")
    }).pipe(provideRoster())
  )
})

describe("API keys' schemas", () => {
  it("decode what a client sends and refuse what it may not", () => {
    const decode = <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S, input: unknown) =>
      Schema.decodeUnknownExit(Schema.toCodecJson(schema))(input)
    const created = decode(CreateApiKeyInput, {
      name: " Sync ".trim(),
      permissions: [1, "team.read"],
      expiresAt: "2030-01-01T00:00:00Z"
    })
    assert.isTrue(Exit.isSuccess(created))
    for (const wrong of [
      { name: "", permissions: [] },
      { name: "x", permissions: Array.from({ length: 51 }, () => 1) },
      { name: "x", permissions: [""] },
      { permissions: [] }
    ]) {
      assert.isTrue(Exit.isFailure(decode(CreateApiKeyInput, wrong)), JSON.stringify(wrong))
    }
    assert.isTrue(Exit.isSuccess(decode(UpdateApiKeyInput, { name: "x", permissions: [] })))
    assert.isTrue(Exit.isFailure(decode(UpdateApiKeyInput, { name: 3 })))
    assert.isTrue(Exit.isFailure(decode(UpdateApiKeyInput, { permissions: 1 })))
    for (const graceSeconds of [0, 604800])
      assert.isTrue(Exit.isSuccess(decode(RotateApiKeyInput, { graceSeconds })))
    for (const graceSeconds of [-1, 604801, 1.5])
      assert.isTrue(Exit.isFailure(decode(RotateApiKeyInput, { graceSeconds })))
    assert.isTrue(Exit.isFailure(decode(ListApiKeysInput, { limit: 0 })))
    assert.isTrue(Exit.isFailure(decode(ListApiKeysInput, { after: { id: "x" } })))
    for (const lookup of ["0123456789abcdef", "x0123456789abcdef", "0123456789abcdefx", "0123456789ABCDEF"]) {
      assert.strictEqual(Exit.isSuccess(decode(ApiKeyLookup, lookup)), lookup === "0123456789abcdef", lookup)
    }
  })

  it.effect("a stored key keeps its lookup part, its digests and the end of a grace", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* createApiKey(master, { name: "Sync", permissions: [] })
      yield* rotateApiKey(master, apiKey.id, { graceSeconds: 60 })
      const record = yield* stored(apiKey.id)
      const encoded = Schema.encodeSync(ApiKeyRecord)(record) as Record<string, unknown>
      assert.includeMembers(Object.keys(encoded), ["lookup", "secretHash", "previous", "organizationId"])
      assert.deepStrictEqual(Object.keys(encoded.previous as object).sort(), ["secretHash", "until"])
      assert.deepStrictEqual(Schema.decodeUnknownSync(ApiKeyRecord)(encoded), record)
    }).pipe(provideRoster())
  )
})

describe("managing API keys", () => {
  it.effect("a change within the caller's own is written once with its entry; no change writes nothing", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* createApiKey(master, { name: "Sync", permissions: ids(1) })
      const same = yield* updateApiKey(master, apiKey.id, { name: "Sync", permissions: ["team.read"] })
      assert.strictEqual(same.name, "Sync")
      assert.lengthOf(yield* entriesOf("api_key.updated"), 0)
      const changed = yield* updateApiKey(master, apiKey.id, { name: "Nightly", permissions: ids(8, 1) })
      assert.deepStrictEqual([changed.name, changed.permissions], ["Nightly", ids(1, 8)])
      const renamed = yield* updateApiKey(master, apiKey.id, { name: "Hourly" })
      assert.deepStrictEqual(renamed.permissions, ids(1, 8))
      const [last, first] = yield* entriesOf("api_key.updated")
      assert.deepStrictEqual(first?.changes, { name: ["Sync", "Nightly"], permissions: [ids(1), ids(1, 8)] })
      assert.deepStrictEqual(last?.changes, { name: ["Nightly", "Hourly"] })
      assert.strictEqual((yield* getApiKey(master, apiKey.id)).name, "Hourly")
      assert.instanceOf(yield* refusal(getApiKey(master, ApiKeyId.make("nope"))), NotFound)
      assert.instanceOf(yield* refusal(updateApiKey(master, ApiKeyId.make("nope"), { name: "x" })), NotFound)
    }).pipe(provideRoster())
  )

  it.effect("nobody manages a key above their own, nor the key they are", () =>
    Effect.gen(function* () {
      const { principal: keeper } = yield* actorWith("keeper", ["team.read", "organization.api_keys.write"])
      const above = yield* createApiKey(master, { name: "Above", permissions: ids(1, 2) })
      const manager = yield* createApiKey(master, { name: "Manager", permissions: ids(1, 10) })
      const asManager = yield* authenticate(bearer(manager.key))
      const aboveThem = yield* refusals([
        updateApiKey(keeper, above.apiKey.id, { name: "Mine" }),
        rotateApiKey(keeper, above.apiKey.id),
        revokeApiKey(keeper, above.apiKey.id)
      ])
      assert.deepStrictEqual(aboveThem, ["key_exceeds_own", "key_exceeds_own", "key_exceeds_own"])
      const itself = yield* refusals([
        updateApiKey(asManager, manager.apiKey.id, { name: "Me" }),
        rotateApiKey(asManager, manager.apiKey.id),
        revokeApiKey(asManager, manager.apiKey.id)
      ])
      assert.deepStrictEqual(itself, ["own_key", "own_key", "own_key"])
      const mine = yield* createApiKey(asManager, { name: "Made by a key", permissions: ids(1) })
      assert.deepStrictEqual(mine.apiKey.createdBy, { kind: "api_key", id: manager.apiKey.id })
      const renamed = yield* updateApiKey(asManager, mine.apiKey.id, { name: "Another key's" })
      assert.strictEqual(renamed.name, "Another key's", "a key manages the keys that are not itself")
      const raise = yield* refusal(updateApiKey(keeper, mine.apiKey.id, { permissions: ids(1, 2) }))
      assert.strictEqual(forbiddenReason(raise), "grant_exceeds_own")
      assert.strictEqual((yield* getApiKey(master, above.apiKey.id)).name, "Above")
      assert.lengthOf(yield* entriesOf("api_key.updated"), 1, "only the change allowed")
    }).pipe(provideRoster())
  )

  it.effect("a rotation keeps the old secret through its grace only; a revoked key is refused at once", () =>
    Effect.gen(function* () {
      const { apiKey, key: old } = yield* createApiKey(master, { name: "Sync", permissions: ids(1) })
      const graced = yield* rotateApiKey(master, apiKey.id, { graceSeconds: 60 })
      assert.strictEqual(graced.apiKey.id, apiKey.id)
      assert.strictEqual(
        Redacted.value(graced.key).slice(0, 19),
        Redacted.value(old).slice(0, 19),
        "same lookup"
      )
      yield* authenticate(bearer(old))
      yield* authenticate(bearer(graced.key))
      yield* TestClock.adjust("60 seconds")
      assert.strictEqual(reasonOf(yield* refusal(authenticate(bearer(old)))), "invalid")
      const sudden = yield* rotateApiKey(master, apiKey.id)
      assert.isNull((yield* stored(apiKey.id)).previous)
      assert.strictEqual(reasonOf(yield* refusal(authenticate(bearer(graced.key)))), "invalid")
      const [last, first] = yield* entriesOf("api_key.rotated")
      assert.deepStrictEqual(
        [first?.changes, last?.changes],
        [{ graceSeconds: [null, 60] }, { graceSeconds: [null, 0] }]
      )
      const revoked = yield* revokeApiKey(master, apiKey.id)
      assert.strictEqual(revoked.id, apiKey.id)
      assert.strictEqual(reasonOf(yield* refusal(authenticate(bearer(sudden.key)))), "invalid")
      assert.instanceOf(yield* refusal(revokeApiKey(master, apiKey.id)), NotFound)
      const [gone] = yield* entriesOf("api_key.revoked")
      // The record names what went: the key is gone, its name stays in the entry.
      assert.deepStrictEqual(gone?.changes, { name: [apiKey.name, null] })
    }).pipe(provideRoster())
  )

  it.effect("lists a page at a time, oldest first, to holders of the permission", () =>
    Effect.gen(function* () {
      for (const name of ["a", "b", "c"]) {
        yield* createApiKey(master, { name, permissions: [] })
        yield* TestClock.adjust("1 second")
      }
      const first = yield* listApiKeys(master, { limit: 2 })
      assert.deepStrictEqual(
        first.items.map((found) => found.name),
        ["a", "b"]
      )
      const after = Option.getOrThrow(first.next)
      const rest = yield* listApiKeys(master, { limit: 2, after })
      assert.deepStrictEqual([rest.items.map((found) => found.name), Option.isNone(rest.next)], [["c"], true])
      assert.lengthOf((yield* listApiKeys(master)).items, 3)
      const { principal: reader } = yield* actorWith("reader", ["team.read"])
      assert.strictEqual(forbiddenReason(yield* refusal(listApiKeys(reader))), "missing_permission")
      assert.strictEqual(
        forbiddenReason(yield* refusal(getApiKey(reader, first.items[0]?.id ?? ApiKeyId.make("x")))),
        "missing_permission"
      )
    }).pipe(provideRoster())
  )

  it.effect("a key is no person: no password of its own to change, no session to end", () =>
    Effect.gen(function* () {
      const { key } = yield* createApiKey(master, { name: "Sync", permissions: ids(1) })
      const asKey = yield* authenticate(bearer(key))
      const input = { currentPassword: Redacted.make("x"), newPassword: Redacted.make("a new password 123") }
      assert.strictEqual(
        forbiddenReason(yield* refusal(changeOwnPassword(asKey, input, "127.0.0.1"))),
        "person_only"
      )
      assert.strictEqual(forbiddenReason(yield* refusal(logOut(asKey))), "person_only")
      assert.deepStrictEqual(yield* logOut(master), { revoked: false })
    }).pipe(provideRoster())
  )
})
