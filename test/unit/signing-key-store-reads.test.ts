import { assert, describe, it } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { TestClock } from "effect/testing"
import { ensureSigningKey, issueAccessToken, rotateSigningKey, SigningKeyStore } from "../../core/index.ts"
import { actorWith, provideRoster } from "../support/roster.ts"

const withTokens = provideRoster({ secretsKeys: ["a secrets key of at least thirty-two characters"] })

describe("the signing keys in the store", () => {
  it.effect("are not read again for each token: the keys recently read sign it", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("ada", ["team.read"])
      yield* issueAccessToken(principal, "https://roster.example")
      let reads = 0
      yield* issueAccessToken(principal, "https://roster.example").pipe(
        Effect.updateService(SigningKeyStore, (store) => ({
          ...store,
          all: Effect.suspend(() => {
            reads++
            return store.all
          })
        }))
      )
      assert.strictEqual(reads, 0)
    }).pipe(withTokens)
  )

  it.effect("lose at a rotation the keys retired by then, and only those", () =>
    Effect.gen(function* () {
      const [first] = yield* ensureSigningKey
      const { key: second } = yield* rotateSigningKey(Duration.zero)
      const { key: third, retired } = yield* rotateSigningKey(Duration.seconds(360))
      assert.deepStrictEqual(retired, [], "the first key's last tokens may still be out")
      const kids = () =>
        Effect.map(
          SigningKeyStore.use((store) => store.all),
          (keys) => keys.map(({ kid }) => kid)
        )
      assert.deepStrictEqual(yield* kids(), [first?.kid, second.kid, third.kid])
      yield* TestClock.adjust(Duration.seconds(360))
      const { key: fourth, retired: removed } = yield* rotateSigningKey(Duration.seconds(360))
      assert.deepStrictEqual(removed, [first?.kid])
      assert.deepStrictEqual(yield* kids(), [second.kid, third.kid, fourth.kid])
    }).pipe(withTokens)
  )
})
