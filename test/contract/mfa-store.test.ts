import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import {
  AuditEntry,
  AuditEntryId,
  AuditLog,
  defaultOrganizationId,
  MemberStore,
  MfaRecord,
  MfaStore,
  SealedSecret,
  TokenHash
} from "../../core/index.ts"
import { assertEquals, at, inParallel, memberRecord, valueOf, withRoles } from "../support/contract.ts"
import { kitStoreKinds } from "../support/stores.ts"

const digest = (n: number) => TokenHash.make(n.toString(16).padStart(64, "0"))
const sealed = (name: string) => SealedSecret.make(`plain.${name}`)
let entries = 0
const entry = (action: AuditEntry["action"], id: string) =>
  new AuditEntry({
    id: AuditEntryId.make(`aud-mfa-${++entries}`),
    at: at(entries),
    action,
    actor: { kind: "member", id },
    target: { type: "member", id },
    changes: {},
    organizationId: defaultOrganizationId
  })
const recorded = (id: string) =>
  Effect.map(
    AuditLog.use((log) => log.page({ targetId: id }, 20)),
    (page) => page.map((found) => found.action).sort()
  )

/** Ada's account, with TOTP confirmed at step 100 and codes 1 to 3. */
const adaWithTotp = Effect.gen(function* () {
  const ada = memberRecord("ada")
  yield* (yield* MemberStore).insert(ada)
  const store = yield* MfaStore
  yield* store.enrol(ada.id, sealed("first"))
  assert.isTrue(
    yield* store.confirm(
      ada.id,
      sealed("first"),
      100,
      [digest(1), digest(2), digest(3)],
      entry("mfa.enabled", ada.id)
    )
  )
  return ada
})

describe.each(kitStoreKinds)("MfaStore on %s", (_, stores) => {
  it.effect("enrols, confirms the pending secret it read only, and keeps the record", () =>
    Effect.gen(function* () {
      const store = yield* MfaStore
      const ada = memberRecord("ada")
      yield* (yield* MemberStore).insert(ada)
      assert.isTrue(Option.isNone(yield* store.find(ada.id)))
      yield* store.enrol(ada.id, sealed("first"))
      yield* store.enrol(ada.id, sealed("second"))
      assertEquals(
        valueOf(yield* store.find(ada.id)),
        new MfaRecord({
          accountId: ada.id,
          secret: null,
          pending: sealed("second"),
          lastStep: 0,
          recoveryCodes: []
        })
      )
      assert.isFalse(
        yield* store.confirm(ada.id, sealed("first"), 5, [digest(1)], entry("mfa.enabled", ada.id))
      )
      assert.isTrue(
        yield* store.confirm(ada.id, sealed("second"), 5, [digest(1)], entry("mfa.enabled", ada.id))
      )
      assertEquals(
        valueOf(yield* store.find(ada.id)),
        new MfaRecord({
          accountId: ada.id,
          secret: sealed("second"),
          pending: null,
          lastStep: 5,
          recoveryCodes: [digest(1)]
        })
      )
      assert.deepStrictEqual(yield* recorded(ada.id), ["mfa.enabled"])
    }).pipe(Effect.provide(withRoles(stores())))
  )

  it.effect("takes each time step once, later ones only, even under a race", () =>
    Effect.gen(function* () {
      const ada = yield* adaWithTotp
      const store = yield* MfaStore
      assert.isFalse(yield* store.takeStep(ada.id, 100), "the step it was confirmed with")
      const takes = yield* inParallel(6, () => store.takeStep(ada.id, 101))
      assert.strictEqual(takes.filter(Boolean).length, 1)
      assert.isFalse(yield* store.takeStep(ada.id, 99))
      assert.strictEqual(valueOf(yield* store.find(ada.id)).lastStep, 101)
    }).pipe(Effect.provide(withRoles(stores())))
  )

  it.effect("uses a recovery code once, under a race, and replaces and removes them with entries", () =>
    Effect.gen(function* () {
      const ada = yield* adaWithTotp
      const store = yield* MfaStore
      const uses = yield* inParallel(6, () =>
        store.useRecoveryCode(ada.id, digest(2), entry("mfa.recovery_code_used", ada.id))
      )
      assert.strictEqual(uses.filter(Boolean).length, 1)
      assert.deepStrictEqual(valueOf(yield* store.find(ada.id)).recoveryCodes, [digest(1), digest(3)])
      assert.isFalse(yield* store.useRecoveryCode(ada.id, digest(9), entry("mfa.recovery_code_used", ada.id)))
      assert.isTrue(
        yield* store.replaceRecoveryCodes(
          ada.id,
          [digest(7)],
          entry("mfa.recovery_codes_regenerated", ada.id)
        )
      )
      assert.deepStrictEqual(valueOf(yield* store.find(ada.id)).recoveryCodes, [digest(7)])
      assert.isTrue(yield* store.remove(ada.id, entry("mfa.disabled", ada.id)))
      assert.isTrue(Option.isNone(yield* store.find(ada.id)))
      assert.isFalse(yield* store.remove(ada.id, entry("mfa.disabled", ada.id)))
      assert.isFalse(yield* store.takeStep(ada.id, 500), "no secret, no step")
      assert.deepStrictEqual(yield* recorded(ada.id), [
        "mfa.disabled",
        "mfa.enabled",
        "mfa.recovery_code_used",
        "mfa.recovery_codes_regenerated"
      ])
    }).pipe(Effect.provide(withRoles(stores())))
  )

  it.effect("refuses codes and steps while TOTP is only pending", () =>
    Effect.gen(function* () {
      const store = yield* MfaStore
      const ada = memberRecord("ada")
      yield* (yield* MemberStore).insert(ada)
      yield* store.enrol(ada.id, sealed("pending"))
      assert.isFalse(yield* store.takeStep(ada.id, 3))
      assert.isFalse(
        yield* store.replaceRecoveryCodes(
          ada.id,
          [digest(1)],
          entry("mfa.recovery_codes_regenerated", ada.id)
        )
      )
      assert.deepStrictEqual(yield* recorded(ada.id), [])
    }).pipe(Effect.provide(withRoles(stores())))
  )
})
