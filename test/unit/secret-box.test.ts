import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { secretBoxLayer } from "../../adapters/crypto/index.ts"
import { SealedSecret, SecretBox, SecretUnreadable } from "../../core/index.ts"

const first = Redacted.make("the first secrets key, long enough 0001")
const second = Redacted.make("the second secrets key, long enough 0002")
const secret = Redacted.make("JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP")

const sealWith = (keys: ReadonlyArray<Redacted.Redacted<string>>) =>
  Effect.provide(
    SecretBox.use((box) => box.seal(secret)),
    secretBoxLayer(keys)
  )
const openWith = (keys: ReadonlyArray<Redacted.Redacted<string>>, sealed: SealedSecret) =>
  Effect.provide(
    SecretBox.use((box) => box.open(sealed)),
    secretBoxLayer(keys)
  )

describe("the secret box (AES-256-GCM under keys derived by HKDF-SHA-256)", () => {
  it.effect("seals so that the stored form holds nothing of the secret, each time differently", () =>
    Effect.gen(function* () {
      const once = yield* sealWith([first])
      const twice = yield* sealWith([first])
      assert.match(once, /^v1\.[0-9a-f]{8}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/)
      assert.notInclude(once, Redacted.value(secret))
      assert.notStrictEqual(once, twice, "a fresh nonce each time")
      assert.strictEqual(Redacted.value(yield* openWith([first], once)), Redacted.value(secret))
    })
  )

  it.effect("rotates: the first key seals, every key opens what it sealed", () =>
    Effect.gen(function* () {
      const old = yield* sealWith([first])
      const fresh = yield* sealWith([second, first])
      assert.strictEqual(Redacted.value(yield* openWith([second, first], old)), Redacted.value(secret))
      assert.strictEqual(Redacted.value(yield* openWith([second], fresh)), Redacted.value(secret))
      const lost = yield* Effect.flip(openWith([second], old))
      assert.instanceOf(lost, SecretUnreadable, "its key was taken away: a failure to answer, no defect")
      const box = yield* Effect.provide(SecretBox.use(Effect.succeed), secretBoxLayer([second, first]))
      assert.isFalse(box.sealedUnderFirst(old), "sealed again by rotate-secrets")
      assert.isTrue(box.sealedUnderFirst(fresh))
    })
  )

  it.effect("refuses a sealed secret that was changed", () =>
    Effect.gen(function* () {
      const sealed = yield* sealWith([first])
      const last = sealed.at(-1) === "A" ? "B" : "A"
      const tampered = SealedSecret.make(`${sealed.slice(0, -1)}${last}`)
      assert.instanceOf(yield* Effect.flip(openWith([first], tampered)), SecretUnreadable)
    })
  )

  it.effect("without a key says it does not seal, and keeps the secret as it is", () =>
    Effect.gen(function* () {
      const box = yield* Effect.provide(SecretBox.use(Effect.succeed), secretBoxLayer([]))
      assert.isFalse(box.sealing)
      const kept = yield* box.seal(secret)
      assert.strictEqual(kept, `plain.${Redacted.value(secret)}`)
      assert.strictEqual(Redacted.value(yield* box.open(kept)), Redacted.value(secret))
      assert.isTrue(box.sealedUnderFirst(kept))
    })
  )
})
