// What PostgreSQL's kit finds by the conditions the other kits read too: any of several clauses,
// and a text's prefix whatever its case, the pattern's own characters taken as they are.
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { postgresDatabaseLayer, postgresKitLayer } from "../../adapters/postgres/index.ts"
import { apiKeys } from "../../adapters/resources/api-keys.ts"
import { RecordKit } from "../../adapters/resources/records.ts"
import { ApiKeyId, type ApiKeyRecord } from "../../core/index.ts"
import { apiKeyRecord } from "../support/api-key-records.ts"
import { scratchPostgres } from "../support/stores.ts"

const key = (n: number, id: string) => apiKeyRecord(n, { id })

const byCreation = { by: ["createdAt"] } as const

/** The records stored, then asked for by each kind of condition. */
const queried = Effect.gen(function* () {
  const records = yield* RecordKit.use((kit) => kit.open(apiKeys))
  const stored = [key(1, "abc-one"), key(2, "ABD-two"), key(3, "a_c-three"), key(4, "a%c-four")]
  for (const record of stored) yield* records.insert(record)
  const ids = (found: ReadonlyArray<ApiKeyRecord>) => found.map((record) => record.id)
  const list = (where: Parameters<typeof records.list>[0]) => Effect.map(records.list(where, byCreation), ids)
  const second = key(2, "ABD-two").lookup
  assert.deepStrictEqual(yield* list([{ id: ApiKeyId.make("abc-one") }, { lookup: second }]), [
    "abc-one",
    "ABD-two"
  ])
  assert.deepStrictEqual(yield* list([]), [])
  assert.deepStrictEqual(yield* list({ id: { startsWith: "aB" } }), ["abc-one", "ABD-two"])
  assert.deepStrictEqual(yield* list({ id: { startsWith: "a_" } }), ["a_c-three"])
  assert.deepStrictEqual(yield* list({ id: { startsWith: "a%" } }), ["a%c-four"])
  assert.deepStrictEqual(yield* list([{ id: { startsWith: "abd" } }, { id: ApiKeyId.make("a_c-three") }]), [
    "ABD-two",
    "a_c-three"
  ])
  const found = yield* records.find([{ id: ApiKeyId.make("none") }, { lookup: second }])
  assert.deepStrictEqual(found._tag === "Some" ? found.value.id : undefined, "ABD-two")
})

describe("PostgreSQL's kit, queried", () => {
  it.effect("finds any of several clauses, and a prefix whatever its case, % and _ as themselves", () =>
    Effect.gen(function* () {
      const url = yield* scratchPostgres
      yield* Effect.provide(
        queried,
        postgresKitLayer.pipe(Layer.provide(postgresDatabaseLayer({ url: Redacted.make(url) })))
      )
    }).pipe(Effect.scoped)
  )
})
