import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import {
  type ApiKeyId,
  ApiKeyStore,
  AuditLog,
  createApiKey,
  getApiKey,
  type IdGenerator,
  NotFound,
  PermissionId,
  type ProductPermissionStore,
  revokeApiKey,
  rotateApiKey,
  type TokenIssuer,
  updateApiKey
} from "../../core/index.ts"
import { failureOf, master, provideRoster } from "../support/roster.ts"

const ids = (...n: Array<number>) => n.map((id) => PermissionId.make(id))
const updates = Effect.flatMap(AuditLog, (log) => log.page({ action: "api_key.updated" }, 50))

/** The store as another request sees it: every key is removed right after this use case reads it. */
const withKeysRemovedAfterRead = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const keys = yield* ApiKeyStore
    return yield* Effect.provideService(self, ApiKeyStore, {
      ...keys,
      find: (id) => keys.find(id).pipe(Effect.tap(() => keys.removeAll))
    })
  })

describe("changing an API key's permissions", () => {
  it.effect("records a list of the same length with other ids, and a shorter one, leaving the name", () =>
    Effect.gen(function* () {
      const { apiKey } = yield* createApiKey(master, { name: "Sync", permissions: ids(1, 8) })
      const swapped = yield* updateApiKey(master, apiKey.id, { permissions: ids(1, 2) })
      assert.deepStrictEqual([swapped.name, swapped.permissions], ["Sync", ids(1, 2)])
      const narrowed = yield* updateApiKey(master, apiKey.id, { permissions: ids(1) })
      assert.deepStrictEqual(narrowed.permissions, ids(1))
      const widened = yield* updateApiKey(master, apiKey.id, { name: "Sync", permissions: ids(1, 2) })
      assert.deepStrictEqual(widened.permissions, ids(1, 2))
      const [third, second, first] = yield* updates
      assert.deepStrictEqual(first?.changes, { permissions: [ids(1, 8), ids(1, 2)] })
      assert.deepStrictEqual(second?.changes, { permissions: [ids(1, 2), ids(1)] })
      assert.deepStrictEqual(third?.changes, { permissions: [ids(1), ids(1, 2)] })
      const kept = yield* getApiKey(master, apiKey.id)
      assert.deepStrictEqual([kept.name, kept.permissions], ["Sync", ids(1, 2)])
    }).pipe(provideRoster())
  )

  it.effect("is NotFound, for each change, when the key is revoked between its read and its write", () =>
    Effect.gen(function* () {
      const changes: ReadonlyArray<
        (
          id: ApiKeyId
        ) => Effect.Effect<void, unknown, ApiKeyStore | IdGenerator | TokenIssuer | ProductPermissionStore>
      > = [
        (id: ApiKeyId) => Effect.asVoid(updateApiKey(master, id, { name: "Late" })),
        (id: ApiKeyId) => Effect.asVoid(rotateApiKey(master, id)),
        (id: ApiKeyId) => Effect.asVoid(revokeApiKey(master, id))
      ]
      for (const change of changes) {
        const { apiKey } = yield* createApiKey(master, { name: "Sync", permissions: ids(1) })
        const refused = failureOf(yield* Effect.exit(withKeysRemovedAfterRead(change(apiKey.id))))
        assert.instanceOf(refused, NotFound)
        assert.deepStrictEqual(
          [(refused as NotFound).entity, (refused as NotFound).id],
          ["api_key", apiKey.id]
        )
      }
    }).pipe(provideRoster())
  )
})
