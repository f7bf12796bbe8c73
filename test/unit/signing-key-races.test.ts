import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration, Effect } from "effect"
import {
  AccessTokenSigner,
  ensureSigningKey,
  NotFound,
  publishedSigningKeys,
  revokeSigningKey,
  rotateSigningKey,
  SigningKeyStore
} from "../../core/index.ts"
import { provideRoster, refusal } from "../support/roster.ts"

const secretsKeys = ["a secrets key of at least thirty-two characters"]
const withTokens = (options: Parameters<typeof provideRoster>[0] = {}) =>
  provideRoster({ secretsKeys, ...options })

/** Counts the key pairs made, and serves a stale, empty list of keys on the first `all` read. */
const racing = <A, E, R>(effect: Effect.Effect<A, E, R>) => {
  const seen = { pairs: 0, reads: 0 }
  const run = effect.pipe(
    Effect.updateService(SigningKeyStore, (store) => ({
      ...store,
      all: Effect.suspend(() => (seen.reads++ === 0 ? Effect.succeed([]) : store.all))
    })),
    Effect.updateService(AccessTokenSigner, (signer) => ({
      ...signer,
      newKeyPair: Effect.suspend(() => {
        seen.pairs++
        return signer.newKeyPair
      })
    }))
  )
  return Effect.map(run, (result) => ({ result, seen }))
}

describe("making signing keys", () => {
  it.effect("makes no key pair when the store holds a key already", () =>
    Effect.gen(function* () {
      const [first] = yield* ensureSigningKey
      let pairs = 0
      const again = yield* ensureSigningKey.pipe(
        Effect.updateService(AccessTokenSigner, (signer) => ({
          ...signer,
          newKeyPair: Effect.suspend(() => {
            pairs++
            return signer.newKeyPair
          })
        }))
      )
      assert.strictEqual(pairs, 0)
      assert.deepStrictEqual(
        again.map((key) => key.kid),
        [first?.kid]
      )
    }).pipe(withTokens())
  )

  it.effect("a rotation that lost its place to another instance's takes the next one", () =>
    Effect.gen(function* () {
      yield* ensureSigningKey
      const { result, seen } = yield* racing(rotateSigningKey(Duration.zero))
      assert.strictEqual(result.key.sequence, 2)
      assert.strictEqual(seen.pairs, 2, "the first pair was made for place 1, taken")
      assert.deepStrictEqual(
        (yield* (yield* SigningKeyStore).all).map((key) => key.sequence),
        [1, 2]
      )
    }).pipe(withTokens())
  )

  it.effect("signs after 360 s by default; a delay below zero is none", () =>
    Effect.gen(function* () {
      yield* ensureSigningKey
      const now = yield* DateTime.now
      const later = yield* rotateSigningKey()
      assert.strictEqual(DateTime.toEpochMillis(later.key.signsFrom) - DateTime.toEpochMillis(now), 360_000)
      const atOnce = yield* rotateSigningKey(Duration.seconds(-30))
      assert.strictEqual(DateTime.toEpochMillis(atOnce.key.signsFrom), DateTime.toEpochMillis(now))
      assert.deepStrictEqual(atOnce.retired, [])
    }).pipe(withTokens())
  )
})

describe("revoking a signing key", () => {
  it.effect("leaves the others signing, with no new key, when some are left", () =>
    Effect.gen(function* () {
      const [first] = yield* ensureSigningKey
      const { key } = yield* rotateSigningKey(Duration.zero)
      assert.deepStrictEqual(yield* revokeSigningKey(first?.kid ?? ""), {
        revoked: first?.kid ?? "",
        replacedBy: undefined
      })
      assert.deepStrictEqual(
        (yield* publishedSigningKeys).keys.map(({ kid }) => kid),
        [key.kid]
      )
    }).pipe(withTokens())
  )

  it.effect("refuses a kid no key has, naming it", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(
        { ...((yield* refusal(revokeSigningKey("no-such-kid"))) as object) },
        { ...new NotFound({ entity: "signing_key", id: "no-such-kid" }) }
      )
    }).pipe(withTokens())
  )

  it.effect("makes no replacement when another instance replaced the last key meanwhile", () =>
    Effect.gen(function* () {
      const [first] = yield* ensureSigningKey
      let adds = 0
      // The other instance's key takes the place this one tries for, just before it.
      const revoked = yield* revokeSigningKey(first?.kid ?? "").pipe(
        Effect.updateService(SigningKeyStore, (store) => ({
          ...store,
          add: (key) => (adds++ === 0 ? Effect.as(store.add(key), false) : store.add(key))
        }))
      )
      assert.deepStrictEqual(revoked, { revoked: first?.kid ?? "", replacedBy: undefined })
      assert.strictEqual(adds, 1)
      assert.lengthOf(yield* (yield* SigningKeyStore).all, 1)
    }).pipe(withTokens())
  )
})
