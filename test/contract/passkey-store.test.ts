import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import {
  AuditEntry,
  AuditEntryId,
  MemberId,
  maxPasskeys,
  PasskeyChallenge,
  PasskeyId,
  PasskeyRecord,
  PasskeyStore
} from "../../core/index.ts"
import { at, inParallel } from "../support/contract.ts"
import { kitStoreKinds } from "../support/stores.ts"

const ada = MemberId.make("mem-passkey-ada")
const bob = MemberId.make("mem-passkey-bob")

const entry = (id: string, action: AuditEntry["action"], accountId: MemberId = ada) =>
  new AuditEntry({
    id: AuditEntryId.make(`aud-pk-${id}`),
    at: at(1),
    action,
    actor: { kind: "member", id: accountId },
    target: { type: "member", id: accountId },
    changes: {}
  })

const credential = (n: number) => PasskeyId.make(`credential-${String(n).padStart(8, "0")}`)

const passkey = (n: number, accountId: MemberId = ada) =>
  new PasskeyRecord({
    id: credential(n),
    accountId,
    name: `Key ${n}`,
    publicKey: "pQECAyYgASFYIA",
    counter: 0,
    transports: ["internal"],
    backedUp: false,
    createdAt: at(n),
    lastUsedAt: null,
    suspended: false
  })

const challenge = (owner: string, createdAt: number, ceremony: PasskeyChallenge["ceremony"] = "sign_in") =>
  new PasskeyChallenge({
    ceremony,
    owner,
    challenge: `nonce-${owner}-${createdAt}`,
    accountId: null,
    organizationId: null,
    createdAt: at(createdAt),
    expiresAt: at(createdAt + 300)
  })

describe.each(kitStoreKinds)("passkeys' store on %s", (_, stores) => {
  it.effect("keeps a credential once, an account's passkeys oldest first, and another's apart", () =>
    Effect.gen(function* () {
      const store = yield* PasskeyStore
      assert.isTrue(yield* store.add(passkey(2), entry("a2", "passkey.added")))
      assert.isTrue(yield* store.add(passkey(1), entry("a1", "passkey.added")))
      assert.isTrue(yield* store.add(passkey(3, bob), entry("b3", "passkey.added", bob)))
      assert.isFalse(
        yield* store.add(passkey(1, bob), entry("b1", "passkey.added", bob)),
        "a known credential"
      )
      assert.deepStrictEqual(
        (yield* store.ofAccount(ada)).map((record) => record.id),
        [credential(1), credential(2)]
      )
      assert.isTrue(Option.isNone(yield* store.rename(bob, credential(1), "Stolen")), "not bob's to rename")
      assert.isTrue(
        Option.isNone(yield* store.remove(bob, credential(1), entry("b1d", "passkey.removed", bob)))
      )
      assert.strictEqual(Option.getOrThrow(yield* store.rename(ada, credential(1), "Laptop")).name, "Laptop")
      assert.strictEqual(Option.getOrThrow(yield* store.find(credential(1))).name, "Laptop")
      assert.isTrue(Option.isSome(yield* store.remove(ada, credential(1), entry("a1d", "passkey.removed"))))
      assert.isTrue(Option.isNone(yield* store.find(credential(1))))
    }).pipe(Effect.provide(stores()))
  )

  it.effect("holds an account to twenty passkeys, even when they are added at once", () =>
    Effect.gen(function* () {
      const store = yield* PasskeyStore
      const tries = yield* inParallel(maxPasskeys + 5, (i) =>
        Effect.result(store.add(passkey(i + 1), entry(`many-${i}`, "passkey.added")))
      )
      const refused = tries.filter((result) => result._tag === "Failure")
      assert.strictEqual(refused.length, 5)
      assert.strictEqual((yield* store.ofAccount(ada)).length, maxPasskeys)
    }).pipe(Effect.provide(stores()))
  )

  it.effect("follows a counter only from the value read, and refuses a suspended credential's use", () =>
    Effect.gen(function* () {
      const store = yield* PasskeyStore
      yield* store.add(passkey(1), entry("c1", "passkey.added"))
      assert.isTrue(yield* store.noteUse(credential(1), 0, 5, at(10)))
      assert.isFalse(yield* store.noteUse(credential(1), 0, 6, at(11)), "another use came first")
      const used = Option.getOrThrow(yield* store.find(credential(1)))
      assert.strictEqual(used.counter, 5)
      assert.deepStrictEqual(used.lastUsedAt, at(10))
      yield* store.suspend(credential(1), entry("c1s", "passkey.clone_suspected"))
      assert.isTrue(Option.getOrThrow(yield* store.find(credential(1))).suspended)
      assert.isFalse(yield* store.noteUse(credential(1), 5, 9, at(12)))
    }).pipe(Effect.provide(stores()))
  )

  it.effect("answers a challenge once, the latest of its owner and ceremony", () =>
    Effect.gen(function* () {
      const store = yield* PasskeyStore
      yield* store.putChallenge(challenge("owner-1", 100))
      yield* store.putChallenge(challenge("owner-1", 101))
      yield* store.putChallenge(challenge("owner-1", 102, "registration"))
      const taken = yield* inParallel(3, () => store.takeChallenge("sign_in", "owner-1"))
      const answered = taken.flatMap((one) => (Option.isSome(one) ? [one.value.challenge] : []))
      assert.deepStrictEqual(answered, ["nonce-owner-1-101"], "taken once, the latest")
      assert.strictEqual(
        Option.getOrThrow(yield* store.takeChallenge("registration", "owner-1")).challenge,
        "nonce-owner-1-102"
      )
      yield* store.putChallenge(challenge("owner-2", 200))
      yield* store.putChallenge(challenge("owner-3", 600))
      assert.isTrue(Option.isNone(yield* store.takeChallenge("sign_in", "owner-2")), "the expired are swept")
    }).pipe(Effect.provide(stores()))
  )
})
