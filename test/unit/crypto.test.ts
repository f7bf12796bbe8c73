import { readdirSync, readFileSync } from "node:fs"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import * as fc from "fast-check"
import { vi } from "vitest"
import {
  idGeneratorLayer,
  makeScryptPasswordHasher,
  owaspScrypt,
  owaspScryptLowMemory,
  tokenIssuerLayer,
  tokenPrefixes
} from "../../adapters/crypto/index.ts"
import { IdGenerator, TokenHash, TokenIssuer } from "../../core/index.ts"
import { fastScrypt } from "../support/roster.ts"

const fast = makeScryptPasswordHasher(fastScrypt)

describe("scrypt password hasher", () => {
  it.live("uses OWASP's parameters in 16 MiB by default and verifies what it hashed", () =>
    Effect.gen(function* () {
      const hasher = makeScryptPasswordHasher()
      const hash = yield* hasher.hash(Redacted.make("s3cret passphrase"))
      assert.match(hash, /^\$scrypt\$ln=14,r=8,p=5\$/)
      assert.deepStrictEqual(owaspScryptLowMemory, { logN: 14, blockSize: 8, parallelism: 5 })
      assert.isTrue(yield* hasher.verify(hash, Redacted.make("s3cret passphrase")))
      assert.isFalse(yield* hasher.verify(hash, Redacted.make("s3cret passphrasE")))
    })
  )

  it.live("verifies hashes made at OWASP's 128 MiB parameters, the former default, by theirs", () =>
    Effect.gen(function* () {
      const former = yield* makeScryptPasswordHasher(owaspScrypt).hash(Redacted.make("s3cret passphrase"))
      assert.match(former, /^\$scrypt\$ln=17,r=8,p=1\$/)
      assert.deepStrictEqual(owaspScrypt, { logN: 17, blockSize: 8, parallelism: 1 })
      const hasher = makeScryptPasswordHasher()
      assert.isTrue(yield* hasher.verify(former, Redacted.make("s3cret passphrase")))
      assert.isFalse(yield* hasher.verify(former, Redacted.make("s3cret passphrasE")))
    })
  )

  it.live("keeps the event loop turning while it hashes", () =>
    Effect.gen(function* () {
      let ticks = 0
      const timer = setInterval(() => ticks++, 2)
      yield* makeScryptPasswordHasher().hash(Redacted.make("a password of some length"))
      clearInterval(timer)
      assert.isAbove(ticks, 0)
    })
  )

  it.live(
    "hashes on a thread of the lowest priority, so hashes only take what the event loop leaves (Linux)",
    () =>
      Effect.gen(function* () {
        yield* makeScryptPasswordHasher(fastScrypt).hash(Redacted.make("a password"))
        // /proc/self/task/<tid>/stat: "tid (name) state …", the niceness 16 fields after the name.
        const niceness = (tid: string) =>
          Number(readFileSync(`/proc/self/task/${tid}/stat`, "utf8").split(") ")[1]?.split(" ")[16])
        const threads = readdirSync("/proc/self/task")
        assert.isTrue(threads.some((tid) => niceness(tid) === 19))
        assert.strictEqual(niceness(String(process.pid)), 0)
      })
  )

  it.live("salts every hash and never embeds the password", () =>
    Effect.gen(function* () {
      const first = yield* fast.hash(Redacted.make("same password"))
      const second = yield* fast.hash(Redacted.make("same password"))
      assert.notStrictEqual(first, second)
      assert.notInclude(first, "same password")
    })
  )

  it.live("rejects malformed stored hashes instead of failing", () =>
    Effect.gen(function* () {
      for (const stored of ["", "plain", "$scrypt$ln=10,r=8,p=1$$", "$argon2id$v=19$m=1,t=1,p=1$abc$def"]) {
        assert.isFalse(yield* fast.verify(stored, Redacted.make("anything")))
      }
    })
  )

  it.live("round-trips any password and tells different ones apart", () =>
    Effect.promise(() =>
      fc.assert(
        fc.asyncProperty(
          fc.string({ minLength: 1, maxLength: 64, unit: "grapheme" }),
          fc.string(),
          async (a, b) => {
            const hash = await Effect.runPromise(fast.hash(Redacted.make(a)))
            assert.isTrue(await Effect.runPromise(fast.verify(hash, Redacted.make(a))))
            if (a.normalize("NFC") !== b.normalize("NFC")) {
              assert.isFalse(await Effect.runPromise(fast.verify(hash, Redacted.make(b))))
            }
          }
        ),
        { numRuns: 25 }
      )
    )
  )
})

describe("session tokens", () => {
  it.effect("are random, at least 128 bits, and known to the store only by a SHA-256 digest", () =>
    Effect.gen(function* () {
      const tokens = yield* TokenIssuer
      const issued = yield* Effect.replicateEffect(tokens.issue("session"), 200)
      const raw = issued.map(({ token }) => Redacted.value(token))
      assert.strictEqual(new Set(raw).size, raw.length)
      for (const { token, hash } of issued) {
        const body = Redacted.value(token).replace(/^rss_/, "")
        assert.isAtLeast(Buffer.from(body, "base64url").length * 8, 128)
        assert.match(hash, /^[0-9a-f]{64}$/)
        assert.strictEqual(yield* tokens.hashOf(token), hash)
        assert.notInclude(hash, body)
      }
      assert.notInclude(String(issued[0]?.token), raw[0] ?? "")
    }).pipe(Effect.provide(tokenIssuerLayer))
  )

  it.effect("say what they open: each kind has a prefix of its own", () =>
    Effect.gen(function* () {
      const tokens = yield* TokenIssuer
      const prefixes = new Set<string>()
      for (const kind of ["session", "invitation", "scim", "password"] as const) {
        const { token } = yield* tokens.issue(kind)
        const prefix = Redacted.value(token).slice(0, 4)
        assert.strictEqual(prefix, tokenPrefixes[kind])
        prefixes.add(prefix)
      }
      assert.strictEqual(prefixes.size, 4, "no two kinds share a prefix")
    }).pipe(Effect.provide(tokenIssuerLayer))
  )

  it.effect("compare hashes: equal ones match, any other never", () =>
    Effect.gen(function* () {
      const tokens = yield* TokenIssuer
      const [first, second] = yield* Effect.replicateEffect(tokens.issue("session"), 2)
      if (first === undefined || second === undefined) return assert.fail("two tokens were issued")
      assert.isTrue(yield* tokens.sameHash(first.hash, first.hash))
      assert.isFalse(yield* tokens.sameHash(first.hash, second.hash))
      const lastDigitChanged = `${first.hash.slice(0, -1)}${first.hash.endsWith("0") ? "1" : "0"}`
      assert.isFalse(yield* tokens.sameHash(first.hash, TokenHash.make(lastDigitChanged)))
      const firstDigitChanged = `${first.hash.startsWith("0") ? "1" : "0"}${first.hash.slice(1)}`
      assert.isFalse(yield* tokens.sameHash(first.hash, TokenHash.make(firstDigitChanged)))
    }).pipe(Effect.provide(tokenIssuerLayer))
  )
})

describe("time-ordered ids", () => {
  it.effect("carry a prefix, the millisecond they were made, a counter and 64 random bits, in hex", () =>
    Effect.gen(function* () {
      const ids = yield* IdGenerator
      const before = Date.now()
      const [audit, subscription] = [yield* ids.next("auditEntry"), yield* ids.next("subscription")]
      const after = Date.now()
      for (const [id, prefix] of [
        [audit, "aud_"],
        [subscription, "sub_"]
      ] as const) {
        assert.match(id, /^[a-z]{3}_[0-9a-f]{34}$/)
        assert.isTrue(id.startsWith(prefix))
        const made = Number.parseInt(id.slice(4, 16), 16)
        assert.isTrue(made >= before && made <= after, `${id} was made between ${before} and ${after}`)
      }
      assert.notStrictEqual(audit.slice(22), subscription.slice(22))
    }).pipe(Effect.provide(idGeneratorLayer))
  )

  it.effect("keep their order when the clock is set back", () =>
    Effect.gen(function* () {
      const ids = yield* IdGenerator
      const clock = vi.spyOn(Date, "now")
      yield* Effect.addFinalizer(() => Effect.sync(() => clock.mockRestore()))
      const made = []
      for (const now of [1_800_000_000_000, 1_799_999_995_000, 1_800_000_000_001]) {
        clock.mockReturnValue(now)
        made.push(yield* ids.next("auditEntry"), yield* ids.next("subscription"))
      }
      const unprefixed = made.map((id) => id.slice(4))
      assert.deepStrictEqual([...unprefixed].sort(), unprefixed)
      assert.deepStrictEqual(
        made.map((id) => Number.parseInt(id.slice(4, 16), 16)),
        [
          1_800_000_000_000, 1_800_000_000_000, 1_800_000_000_000, 1_800_000_000_000, 1_800_000_000_001,
          1_800_000_000_001
        ]
      )
    }).pipe(Effect.scoped, Effect.provide(idGeneratorLayer))
  )
})

describe("subscription ids", () => {
  it.effect("sort in the order they were made, even within one millisecond", () =>
    Effect.gen(function* () {
      const ids = yield* IdGenerator
      const made = []
      for (let i = 0; i < 2000; i++) made.push(yield* ids.next("subscription"))
      assert.deepStrictEqual([...made].sort(), made)
      assert.strictEqual(new Set(made).size, made.length)
    }).pipe(Effect.provide(idGeneratorLayer))
  )
})
