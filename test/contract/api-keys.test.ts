import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Option } from "effect"
import {
  ApiKeyId,
  ApiKeyLookup,
  ApiKeyRecord,
  ApiKeyStore,
  AuditEntry,
  AuditEntryId,
  AuditLog,
  CurrentOrganization,
  defaultOrganizationId,
  OrganizationId,
  PermissionId,
  TokenHash,
  toApiKey
} from "../../core/index.ts"
import { assertEquals, at, valueOf } from "../support/contract.ts"
import { kitStoreKinds } from "../support/stores.ts"

const other = OrganizationId.make("org-other")
const inOther = Effect.provideService(CurrentOrganization, other)
const hash = (n: number) => TokenHash.make(n.toString(16).padStart(64, "0"))
const ids = (...n: Array<number>) => n.map((id) => PermissionId.make(id))

const key = (n: number, organizationId = defaultOrganizationId) =>
  new ApiKeyRecord({
    id: ApiKeyId.make(`key-${n}`),
    name: `Sync ${n}`,
    start: `rk_${n.toString(16).padStart(7, "0")}`,
    permissions: ids(1, n),
    createdBy: { kind: "member", id: "m-1" },
    createdAt: at(n),
    expiresAt: n % 2 === 0 ? at(1000) : null,
    lastUsedAt: null,
    organizationId,
    lookup: ApiKeyLookup.make(n.toString(16).padStart(16, "0")),
    secretHash: hash(n),
    previous: null
  })

let entries = 0
const entry = (action: AuditEntry["action"], id: string, organizationId = defaultOrganizationId) =>
  new AuditEntry({
    id: AuditEntryId.make(`aud-key-${++entries}`),
    at: at(entries),
    action,
    actor: { kind: "master" },
    target: { type: "api_key", id },
    changes: {},
    organizationId
  })

const auditedActions = Effect.map(
  AuditLog.use((log) => log.page({ targetId: "key-1" }, 10)),
  (page) => page.map((found) => found.action).sort()
)

describe.each(kitStoreKinds)("ApiKeyStore on %s", (_, stores) => {
  it.effect(
    "pages an organisation's keys oldest first, finds one by lookup anywhere, and by id only in its own",
    () =>
      Effect.gen(function* () {
        const store = yield* ApiKeyStore
        for (const n of [3, 1, 2]) yield* store.insert(key(n), entry("api_key.created", `key-${n}`))
        yield* inOther(store.insert(key(4, other), entry("api_key.created", "key-4", other)))
        assert.deepStrictEqual(
          (yield* store.page(undefined, 10)).map((found) => found.id),
          ["key-1", "key-2", "key-3"]
        )
        const first = yield* store.page(undefined, 2)
        assertEquals(first[0], toApiKey(key(1)))
        const rest = yield* store.page({ createdAt: at(2), id: ApiKeyId.make("key-2") }, 2)
        assert.deepStrictEqual(
          rest.map((found) => found.id),
          ["key-3"]
        )
        assertEquals(valueOf(yield* store.findByLookup(key(4).lookup)), key(4, other))
        assertEquals(valueOf(yield* store.find(ApiKeyId.make("key-2"))), key(2))
        assert.isTrue(Option.isNone(yield* store.find(ApiKeyId.make("key-4"))), "not another organisation's")
        assert.isTrue(Option.isNone(yield* store.findByLookup(ApiKeyLookup.make("ffffffffffffffff"))))
      }).pipe(Effect.provide(stores()))
  )

  it.effect("changes, rotates and revokes a key of its own organisation only, each with its entry", () =>
    Effect.gen(function* () {
      const store = yield* ApiKeyStore
      const id = ApiKeyId.make("key-1")
      yield* store.insert(key(1), entry("api_key.created", "key-1"))
      assert.isTrue(
        Option.isNone(
          yield* inOther(store.update(id, { name: "Taken" }, entry("api_key.updated", "key-1", other)))
        ),
        "another organisation changes nothing"
      )
      const renamed = valueOf(
        yield* store.update(
          id,
          { name: "Renamed", permissions: ids(2, 8) },
          entry("api_key.updated", "key-1")
        )
      )
      assert.strictEqual(renamed.name, "Renamed")
      assert.deepStrictEqual(renamed.permissions, ids(2, 8))
      const until = at(5000)
      const rotated = valueOf(
        yield* store.rotate(
          id,
          { secretHash: hash(99), previous: { secretHash: hash(1), until } },
          entry("api_key.rotated", "key-1")
        )
      )
      assert.strictEqual(rotated.name, "Renamed", "a rotation keeps the rest")
      const stored = valueOf(yield* store.findByLookup(key(1).lookup))
      assert.strictEqual(stored.secretHash, hash(99))
      assert.strictEqual(stored.previous?.secretHash, hash(1))
      assert.isTrue(stored.previous !== null && DateTime.Equivalence(stored.previous.until, until))
      yield* store.rotate(id, { secretHash: hash(100), previous: null }, entry("api_key.rotated", "key-1"))
      assert.isNull(valueOf(yield* store.find(id)).previous, "a rotation without grace drops the old secret")
      assert.isTrue(Option.isNone(yield* inOther(store.revoke(id, entry("api_key.revoked", "key-1", other)))))
      assert.strictEqual(valueOf(yield* store.revoke(id, entry("api_key.revoked", "key-1"))).name, "Renamed")
      assert.isTrue(Option.isNone(yield* store.revoke(id, entry("api_key.revoked", "key-1"))), "revoked once")
      assert.isTrue(Option.isNone(yield* store.findByLookup(key(1).lookup)))
      assert.isTrue(
        Option.isNone(yield* store.update(id, { name: "Again" }, entry("api_key.updated", "key-1")))
      )
      assert.deepStrictEqual(yield* auditedActions, [
        "api_key.created",
        "api_key.revoked",
        "api_key.rotated",
        "api_key.rotated",
        "api_key.updated"
      ])
    }).pipe(Effect.provide(stores()))
  )

  it.effect(
    "counts the keys naming a permission in every organisation, by the whole id, as they change",
    () =>
      Effect.gen(function* () {
        const store = yield* ApiKeyStore
        // Lists [1, n] and, in the other organisation, [1000]: 100 and 10 only inside other ids' digits.
        for (const n of [2, 1000, 1002]) yield* store.insert(key(n), entry("api_key.created", `key-${n}`))
        const elsewhere = new ApiKeyRecord({ ...key(1001, other), permissions: ids(1000) })
        yield* inOther(store.insert(elsewhere, entry("api_key.created", "key-1001", other)))
        const counts = (...permissions: Array<number>) =>
          Effect.forEach(permissions, (id) => store.countHolding(PermissionId.make(id)))
        assert.deepStrictEqual(yield* counts(1, 2, 1000, 1002, 100, 10, 0), [3, 1, 2, 1, 0, 0, 0])
        assert.deepStrictEqual(yield* inOther(counts(1000)), [2], "the same from any organisation")
        yield* store.update(
          ApiKeyId.make("key-1000"),
          { permissions: ids(1, 2) },
          entry("api_key.updated", "key-1000")
        )
        assert.deepStrictEqual(yield* counts(1000, 2), [1, 2])
        yield* inOther(store.revoke(elsewhere.id, entry("api_key.revoked", "key-1001", other)))
        assert.deepStrictEqual(yield* counts(1000, 1), [0, 3])
      }).pipe(Effect.provide(stores()))
  )

  it.effect(
    "notes a key's use once per minute, never moving it back, and removes an organisation's keys",
    () =>
      Effect.gen(function* () {
        const store = yield* ApiKeyStore
        const id = ApiKeyId.make("key-1")
        yield* store.insert(key(1), entry("api_key.created", "key-1"))
        yield* inOther(store.insert(key(2, other), entry("api_key.created", "key-2", other)))
        yield* store.noteUse(id, at(120))
        yield* store.noteUse(id, at(60))
        const noted = valueOf(yield* store.find(id)).lastUsedAt
        assert.isTrue(
          noted !== null && DateTime.Equivalence(noted, at(120)),
          "an earlier minute does not replace a later one"
        )
        yield* store.noteUse(id, at(180))
        const later = valueOf(yield* store.find(id)).lastUsedAt
        assert.isTrue(later !== null && DateTime.Equivalence(later, at(180)))
        yield* store.removeAll
        assert.deepStrictEqual(yield* store.page(undefined, 10), [])
        assert.isTrue(Option.isNone(yield* store.findByLookup(key(1).lookup)))
        assert.strictEqual(
          (yield* inOther(store.page(undefined, 10))).length,
          1,
          "another organisation keeps its keys"
        )
      }).pipe(Effect.provide(stores()))
  )
})
