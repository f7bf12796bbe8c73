import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import {
  AuditEntry,
  AuditEntryId,
  defaultOrganizationId,
  MemberStore,
  MfaStore,
  SealedSecret,
  SealedSecrets,
  WebhookId,
  WebhookRecord,
  WebhookStore
} from "../../core/index.ts"
import { at, memberRecord, withRoles } from "../support/contract.ts"
import { kitStoreKinds } from "../support/stores.ts"

const sealed = (name: string) => SealedSecret.make(`v1.oldkey.${name}`)
const created = (id: string) =>
  new AuditEntry({
    id: AuditEntryId.make(`aud-sealed-${id}`),
    at: at(1),
    action: "webhook.created",
    actor: { kind: "master" },
    target: { type: "webhook", id },
    changes: {},
    organizationId: defaultOrganizationId
  })

const webhook = (n: number, previous: boolean) =>
  new WebhookRecord({
    id: WebhookId.make(`whk-sealed-${n}`),
    url: `https://example.com/hooks/${n}`,
    events: ["*"],
    enabled: true,
    description: null,
    createdAt: at(n),
    organizationId: defaultOrganizationId,
    secret: sealed(`hook-${n}`),
    previous: previous ? { secret: sealed(`hook-${n}-before`), until: at(100) } : null,
    failingSince: null
  })

/** Every sealed secret, read in pages of `size`. */
const everySealed = (size: number) =>
  Effect.gen(function* () {
    const store = yield* SealedSecrets
    const all: Array<string> = []
    let after: string | undefined
    for (let pages = 0; pages < 50; pages++) {
      const page = yield* store.page(after, size)
      all.push(...page.flatMap((record) => record.sealed))
      if (page.length < size) return all.sort()
      after = page.at(-1)?.place
    }
    return all.sort()
  })

describe.each(kitStoreKinds)("SealedSecrets on %s", (_, stores) => {
  it.effect(
    "pages through every sealed secret once, whatever the page's size, and reseals one where it still is",
    () =>
      Effect.gen(function* () {
        const webhooks = yield* WebhookStore
        for (const n of [1, 2, 3]) yield* webhooks.insert(webhook(n, n === 2), created(`whk-sealed-${n}`))
        const ada = memberRecord("ada")
        yield* (yield* MemberStore).insert(ada)
        yield* (yield* MfaStore).enrol(ada.id, sealed("ada-pending"))
        const expected = ["ada-pending", "hook-1", "hook-2", "hook-2-before", "hook-3"].map(sealed).sort()
        for (const size of [1, 2, 10])
          assert.deepStrictEqual(yield* everySealed(size), expected, `pages of ${size}`)

        const store = yield* SealedSecrets
        const [first] = yield* store.page(undefined, 10)
        const holder = (yield* store.page(undefined, 10)).find((record) =>
          record.sealed.includes(sealed("hook-2-before"))
        )
        assert.isDefined(first)
        assert.isTrue(
          yield* store.reseal(holder?.place ?? "", sealed("hook-2-before"), sealed("hook-2-again"))
        )
        assert.isFalse(
          yield* store.reseal(holder?.place ?? "", sealed("hook-2-before"), sealed("hook-2-twice")),
          "sealed again already: a second reseal of what is gone changes nothing"
        )
        const hook = Option.getOrThrow(yield* webhooks.find(WebhookId.make("whk-sealed-2")))
        assert.deepStrictEqual(
          [hook.secret, hook.previous?.secret],
          [sealed("hook-2"), sealed("hook-2-again")]
        )
        const pending = (yield* store.page(undefined, 10)).find((record) =>
          record.sealed.includes(sealed("ada-pending"))
        )
        assert.isTrue(yield* store.reseal(pending?.place ?? "", sealed("ada-pending"), sealed("ada-new")))
        assert.strictEqual(
          Option.getOrThrow(yield* (yield* MfaStore).find(ada.id)).pending,
          sealed("ada-new")
        )
      }).pipe(Effect.provide(withRoles(stores())))
  )
})
