import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration } from "effect"
import { publishedJwk, publishedKeysAt, SealedSecret, SigningKey, signingKeyAt } from "../../core/index.ts"
import { nextSequence } from "../../core/steps/tokens/new-signing-key.ts"

const start = DateTime.makeUnsafe("2026-01-01T00:00:00Z")
const at = (seconds: number) => DateTime.addDuration(start, Duration.seconds(seconds))
const fiveMinutes = Duration.seconds(300)

/** The `sequence`th key, signing from `signsFrom` seconds after the start. */
const key = (sequence: number, signsFrom: number) =>
  new SigningKey({
    kid: `k${sequence}`,
    alg: "EdDSA",
    publicJwk: { kty: "OKP", crv: "Ed25519", x: `x${sequence}` },
    privateKey: SealedSecret.make("v1.sealed"),
    sequence,
    createdAt: start,
    signsFrom: at(signsFrom)
  })

const kidsOf = (keys: ReadonlyArray<SigningKey>) => keys.map((one) => one.kid)

describe("the key that signs", () => {
  it("is none of no keys, and the newest whose time has come, from that very instant", () => {
    assert.isUndefined(signingKeyAt([], start))
    const keys = [key(2, 360), key(1, 0)]
    assert.strictEqual(signingKeyAt(keys, at(100))?.kid, "k1")
    assert.strictEqual(signingKeyAt(keys, DateTime.subtractDuration(at(360), Duration.millis(1)))?.kid, "k1")
    assert.strictEqual(signingKeyAt(keys, at(360))?.kid, "k2")
    assert.strictEqual(signingKeyAt(keys, at(9000))?.kid, "k2")
  })

  it("is the newest by the order keys were made, not by when they began to sign", () => {
    assert.strictEqual(signingKeyAt([key(1, 10), key(2, 0)], at(20))?.kid, "k2")
    assert.strictEqual(signingKeyAt([key(3, 5), key(1, 10), key(2, 0)], at(20))?.kid, "k3")
  })

  it("is, while none has begun, the one that begins first", () => {
    assert.strictEqual(signingKeyAt([key(1, 200), key(2, 100), key(3, 300)], start)?.kid, "k2")
    assert.strictEqual(signingKeyAt([key(1, 100), key(2, 200)], start)?.kid, "k1")
  })
})

describe("the published keys", () => {
  it("are every key that signs or will, by the order they were made", () => {
    assert.deepStrictEqual(kidsOf(publishedKeysAt([key(1, 0)], at(9000), fiveMinutes)), ["k1"])
    const keys = [key(3, 720), key(1, 0), key(2, 360)]
    assert.deepStrictEqual(kidsOf(publishedKeysAt(keys, at(10), fiveMinutes)), ["k1", "k2", "k3"])
  })

  it("keep one that stopped signing for a token's lifetime and a minute more, then drop it", () => {
    const keys = [key(1, 0), key(2, 360)]
    const stoppedFor = (seconds: number, lifetime = fiveMinutes) =>
      kidsOf(publishedKeysAt(keys, at(360 + seconds), lifetime))
    assert.deepStrictEqual(stoppedFor(0), ["k1", "k2"])
    assert.deepStrictEqual(stoppedFor(359), ["k1", "k2"])
    assert.deepStrictEqual(stoppedFor(360), ["k2"], "the old key's last token has expired")
    assert.deepStrictEqual(stoppedFor(119, Duration.seconds(60)), ["k1", "k2"])
    assert.deepStrictEqual(stoppedFor(120, Duration.seconds(60)), ["k2"], "shorter tokens, sooner")
  })

  it("count a key stopped from the first newer key that began, not the last", () => {
    const keys = [key(1, 0), key(2, 100), key(3, 200)]
    assert.deepStrictEqual(kidsOf(publishedKeysAt(keys, at(459), fiveMinutes)), ["k1", "k2", "k3"])
    assert.deepStrictEqual(kidsOf(publishedKeysAt(keys, at(460), fiveMinutes)), ["k2", "k3"])
    assert.deepStrictEqual(kidsOf(publishedKeysAt(keys, at(560), fiveMinutes)), ["k3"])
  })

  it("keep a key no newer one has stopped: one not begun, or one that began before it", () => {
    const pending = [key(1, 0), key(2, 1000)]
    assert.deepStrictEqual(kidsOf(publishedKeysAt(pending, at(999), Duration.zero)), ["k1", "k2"])
    const earlier = [key(1, 500), key(2, 0)]
    assert.deepStrictEqual(kidsOf(publishedKeysAt(earlier, at(5000), fiveMinutes)), ["k1", "k2"])
    const older = [key(1, 0), key(2, 100)]
    assert.deepStrictEqual(
      kidsOf(publishedKeysAt(older, at(5000), fiveMinutes)),
      ["k2"],
      "an older key never stops a newer one"
    )
  })
})

describe("a key's place and its published form", () => {
  it("comes after every key's place, the first being 1", () => {
    assert.strictEqual(nextSequence([]), 1)
    assert.strictEqual(nextSequence([key(3, 0), key(1, 0)]), 4)
  })

  it("publishes the public members with the key's own kid, alg and a use of sig", () => {
    const made = new SigningKey({
      ...key(1, 0),
      publicJwk: { kty: "OKP", crv: "Ed25519", x: "abc", kid: "forged", use: "enc" }
    })
    assert.deepStrictEqual(publishedJwk(made), {
      kty: "OKP",
      crv: "Ed25519",
      x: "abc",
      kid: "k1",
      alg: "EdDSA",
      use: "sig"
    })
  })
})
