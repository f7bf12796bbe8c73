import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import {
  authenticate,
  listPasskeys,
  maxPasskeys,
  type NotFound,
  PasskeyId,
  PasskeyLimit,
  PasskeyRefused,
  passkeyRegistrationOptions,
  registerPasskey,
  removePasskey,
  renamePasskey,
  updateOrganization,
  WrongPassword
} from "../../core/index.ts"
import { assertUnrecorded, theEntryOf } from "../support/audit.ts"
import { actorWith, master, password, refusal } from "../support/roster.ts"
import { addPasskey, provideWebAuthn } from "../support/webauthn-unit.ts"

const client = "192.0.2.5"
const laptop = "credential-laptop-0001"
const phone = "credential-phone-00002"

/** Every test member has this password. */
const passwordOfAda = { password: Redacted.make(password) }

const notFound = (error: unknown, id: string) => {
  const found = error as NotFound
  assert.deepStrictEqual([found._tag, found.entity, found.id], ["NotFound", "passkey", id])
}

describe("one's passkeys", () => {
  it.effect("are listed oldest first with their names and dates, never a key; nobody else's", () =>
    Effect.gen(function* () {
      const ada = yield* actorWith("ada", [])
      const bob = yield* actorWith("bob", [])
      const added = yield* addPasskey(ada.principal, laptop, "Laptop", { backedUp: true })
      assert.deepStrictEqual(added, {
        id: PasskeyId.make(laptop),
        name: "Laptop",
        createdAt: DateTime.makeUnsafe(0),
        lastUsedAt: null,
        backedUp: true,
        transports: ["internal"]
      })
      yield* TestClock.adjust("1 second")
      yield* addPasskey(ada.principal, phone, "Phone")
      const listed = yield* listPasskeys(ada.principal)
      assert.deepStrictEqual(
        listed.map(({ id, name }) => [id, name]),
        [
          [laptop, "Laptop"],
          [phone, "Phone"]
        ]
      )
      assert.notInclude(JSON.stringify(listed), "cHVibGlj")
      assert.deepStrictEqual(yield* listPasskeys(bob.principal), [])
    }).pipe(provideWebAuthn())
  )

  it.effect("are renamed by their owner only", () =>
    Effect.gen(function* () {
      const ada = yield* actorWith("ada", [])
      const bob = yield* actorWith("bob", [])
      yield* addPasskey(ada.principal, laptop)
      const renamed = yield* renamePasskey(ada.principal, PasskeyId.make(laptop), "Work laptop")
      assert.strictEqual(renamed.name, "Work laptop")
      assert.strictEqual(renamed.id, laptop)
      notFound(yield* refusal(renamePasskey(bob.principal, PasskeyId.make(laptop), "Mine")), laptop)
      notFound(
        yield* refusal(renamePasskey(ada.principal, PasskeyId.make("unknown-credential-1"), "X")),
        "unknown-credential-1"
      )
      assert.strictEqual((yield* listPasskeys(ada.principal))[0]?.name, "Work laptop")
    }).pipe(provideWebAuthn())
  )

  it.effect("are removed by their owner, the password proven, and recorded", () =>
    Effect.gen(function* () {
      const ada = yield* actorWith("ada", [])
      const bob = yield* actorWith("bob", [])
      yield* addPasskey(ada.principal, laptop)
      const id = PasskeyId.make(laptop)
      const wrong = yield* assertUnrecorded(
        refusal(removePasskey(ada.principal, id, Redacted.make("wrong"), client))
      )
      assert.instanceOf(wrong, WrongPassword)
      notFound(yield* refusal(removePasskey(bob.principal, id, Redacted.make(password), client)), laptop)
      assert.lengthOf(yield* listPasskeys(ada.principal), 1)
      const { result: removed, entry } = yield* theEntryOf(
        removePasskey(ada.principal, id, Redacted.make(password), client)
      )
      assert.strictEqual(removed.id, laptop)
      assert.strictEqual(entry.action, "passkey.removed")
      assert.deepStrictEqual(entry.actor, { kind: "member", id: ada.member.id })
      assert.deepStrictEqual(entry.target, { type: "member", id: ada.member.id })
      assert.deepStrictEqual(entry.changes, { passkey: [laptop, null] })
      assert.lengthOf(yield* listPasskeys(ada.principal), 0)
      notFound(yield* refusal(removePasskey(ada.principal, id, Redacted.make(password), client)), laptop)
    }).pipe(provideWebAuthn())
  )
})

describe("adding a passkey", () => {
  it.effect("asks for it as the account, excluding its passkeys, and records what was added", () =>
    Effect.gen(function* () {
      const ada = yield* actorWith("ada", [])
      const first = yield* passkeyRegistrationOptions(ada.principal, {}, client)
      assert.deepStrictEqual(first.user, { id: ada.member.id, name: "ada", displayName: "ada@example.com" })
      assert.deepStrictEqual(first.excludeCredentials, [])
      const { result, entry } = yield* theEntryOf(
        registerPasskey(ada.principal, {
          name: "Laptop",
          response: { id: laptop, challenge: first.challenge }
        })
      )
      assert.strictEqual(result.name, "Laptop")
      assert.strictEqual(entry.action, "passkey.added")
      assert.deepStrictEqual(entry.actor, { kind: "member", id: ada.member.id })
      assert.deepStrictEqual(entry.target, { type: "member", id: ada.member.id })
      assert.deepStrictEqual(entry.changes, { passkey: [null, "Laptop"] })
      const second = yield* passkeyRegistrationOptions(ada.principal, {}, client)
      assert.deepStrictEqual(second.excludeCredentials, [laptop])
    }).pipe(provideWebAuthn())
  )

  it.effect(
    "answers the options' challenge within five minutes, once; a credential kept already is refused",
    () =>
      Effect.gen(function* () {
        const ada = yield* actorWith("ada", [])
        const bob = yield* actorWith("bob", [])
        const late = yield* passkeyRegistrationOptions(ada.principal, {}, client)
        yield* TestClock.adjust("300 seconds")
        const refused = yield* refusal(
          registerPasskey(ada.principal, {
            name: "Late",
            response: { id: laptop, challenge: late.challenge }
          })
        )
        assert.instanceOf(refused, PasskeyRefused)
        const options = yield* passkeyRegistrationOptions(ada.principal, passwordOfAda, client)
        yield* TestClock.adjust("299 seconds")
        yield* registerPasskey(ada.principal, {
          name: "In time",
          response: { id: laptop, challenge: options.challenge }
        })
        const bobs = yield* passkeyRegistrationOptions(bob.principal, passwordOfAda, client)
        const taken = yield* assertUnrecorded(
          refusal(
            registerPasskey(bob.principal, {
              name: "Ada's",
              response: { id: laptop, challenge: bobs.challenge }
            })
          )
        )
        assert.instanceOf(taken, PasskeyRefused)
        assert.deepStrictEqual(yield* listPasskeys(bob.principal), [])
      }).pipe(provideWebAuthn())
  )

  it.effect(`stops at ${maxPasskeys} passkeys, before any ceremony`, () =>
    Effect.gen(function* () {
      const ada = yield* actorWith("ada", [])
      for (let count = 0; count < maxPasskeys; count++) {
        yield* addPasskey(ada.principal, `credential-${String(count).padStart(12, "0")}`, `Key ${count}`)
      }
      assert.lengthOf(yield* listPasskeys(ada.principal), maxPasskeys)
      const limit = yield* refusal(passkeyRegistrationOptions(ada.principal, {}, client))
      assert.instanceOf(limit, PasskeyLimit)
      assert.strictEqual((limit as PasskeyLimit).limit, maxPasskeys)
    }).pipe(provideWebAuthn())
  )

  it.effect(
    "enrols a second factor where one is required; removing the last one restricts the sessions again",
    () =>
      Effect.gen(function* () {
        yield* updateOrganization(master, { requireMfa: true })
        const ada = yield* actorWith("ada", [])
        const pending = () =>
          Effect.map(
            authenticate(Option.some(ada.token)),
            (principal) => principal._tag === "Member" && principal.mfaPending === true
          )
        assert.isTrue(yield* pending(), "no second factor yet")
        yield* addPasskey(ada.principal, laptop)
        assert.isFalse(yield* pending(), "the passkey is one")
        yield* addPasskey(ada.principal, phone)
        yield* removePasskey(ada.principal, PasskeyId.make(laptop), Redacted.make(password), client)
        assert.isFalse(yield* pending(), "the phone is still one")
        yield* removePasskey(ada.principal, PasskeyId.make(phone), Redacted.make(password), client)
        assert.isTrue(yield* pending(), "the last one gone")
      }).pipe(provideWebAuthn())
  )
})
