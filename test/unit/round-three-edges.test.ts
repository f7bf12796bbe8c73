// The edges of round 3's rules that the attacks leave untried: sealing again batch by batch, whom
// an endpoint hears as in each case, the two kinds of guesses limited together, a new address asked
// for in vain.
import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Layer, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import {
  type AuditActor,
  AuditEntry,
  AuditEntryId,
  addMember,
  CurrentOrganization,
  createApiKey,
  createWebhook,
  DeliveryStore,
  defaultOrganizationId,
  deliverEvents,
  enrolTotp,
  eventCatalog,
  logIn,
  type MailOff,
  MemberId,
  MfaStore,
  PermissionCatalog,
  permissionIdOf,
  RateLimited,
  removeMember,
  requestEmailChange,
  resealSecrets,
  revokeApiKey,
  SealedSecret,
  SecretBox,
  SecretsKeyRequired,
  SecretUnreadable,
  Unauthenticated,
  updateRole,
  updateWebhook,
  verifyMfa,
  WebhookId,
  WebhookRecord,
  WebhookStore
} from "../../core/index.ts"
import { creatorPermissions } from "../../core/steps/webhooks/creator-permissions.ts"
import { mailbox } from "../support/mailbox.ts"
import {
  actorWith,
  master,
  memberInput,
  password,
  provideRoster,
  refusal,
  roleWith
} from "../support/roster.ts"
import { memberWithTotp } from "../support/totp.ts"
import { recordingSender, withSender } from "../support/webhook-sending.ts"

const client = "192.0.2.63"
const proof = { password: Redacted.make(password) }

/**
 * A box that seals as `new.`, opens `new.` and `old.` (an older key), and no `lost.` (a key taken
 * away): sealing again, without real keys.
 */
const boxOfTwoKeys = Layer.succeed(
  SecretBox,
  SecretBox.of({
    sealing: true,
    seal: (secret) => Effect.succeed(SealedSecret.make(`new.${Redacted.value(secret)}`)),
    open: (sealed) =>
      sealed.startsWith("lost.")
        ? Effect.fail(new SecretUnreadable())
        : Effect.succeed(Redacted.make(sealed.slice(sealed.indexOf(".") + 1))),
    sealedUnderFirst: (sealed) => sealed.startsWith("new.")
  })
)
const sealed = (text: string) => SealedSecret.make(text)

const endpoint = (n: number, secret: string) =>
  new WebhookRecord({
    id: WebhookId.make(`whk-edge-${n}`),
    url: `https://hooks.example.com/${n}`,
    events: ["*"],
    enabled: true,
    description: null,
    createdAt: DateTime.makeUnsafe(n * 1000),
    organizationId: defaultOrganizationId,
    secret: sealed(secret),
    previous: null,
    failingSince: null
  })
const made = (id: string) =>
  new AuditEntry({
    id: AuditEntryId.make(`aud-edge-${id}`),
    at: DateTime.makeUnsafe(0),
    action: "webhook.created",
    actor: { kind: "master" },
    target: { type: "webhook", id },
    changes: {}
  })

describe("sealing again, batch by batch", () => {
  it.effect(
    "seals what an older key sealed, leaves the first key's, counts what no key opens, and says where to go on",
    () =>
      Effect.gen(function* () {
        const hooks = yield* WebhookStore
        for (const [n, secret] of [
          [1, "old.one"],
          [2, "new.two"],
          [3, "lost.three"]
        ] as const) {
          yield* hooks
            .insert(endpoint(n, secret), made(`whk-edge-${n}`))
            .pipe(Effect.provideService(CurrentOrganization, defaultOrganizationId))
        }
        yield* (yield* MfaStore).enrol(MemberId.make("mem-edge"), sealed("old.pending"))
        const first = yield* resealSecrets(undefined, 2)
        // Resources in their names' order (second factors, then endpoints), records in their keys'.
        assert.deepStrictEqual([first.resealed, first.current, first.unreadable], [2, 0, 0])
        assert.isDefined(first.next, "a full batch: more may follow")
        const second = yield* resealSecrets(first.next, 2)
        assert.deepStrictEqual([second.resealed, second.current, second.unreadable], [0, 1, 1])
        const third = yield* resealSecrets(second.next, 2)
        assert.deepStrictEqual(
          [third.resealed, third.current, third.unreadable, third.next],
          [0, 0, 0, undefined]
        )
        const again = yield* resealSecrets(undefined, 10)
        assert.deepStrictEqual(
          [again.resealed, again.current, again.unreadable, again.next],
          [0, 3, 1, undefined]
        )
        const one = yield* hooks
          .find(WebhookId.make("whk-edge-1"))
          .pipe(Effect.provideService(CurrentOrganization, defaultOrganizationId))
        assert.strictEqual(Option.getOrThrow(one).secret, "new.one")
        assert.strictEqual(
          Option.getOrThrow(yield* (yield* MfaStore).find(MemberId.make("mem-edge"))).pending,
          "new.pending"
        )
      }).pipe(Effect.provide(boxOfTwoKeys), provideRoster())
  )

  it.effect(
    "a delivery whose endpoint's secret no key opens is not sent, and fails to be tried again",
    () => {
      const sender = recordingSender()
      return Effect.gen(function* () {
        yield* (yield* WebhookStore)
          .insert(endpoint(0, "lost.nine"), made("whk-edge-0"))
          .pipe(Effect.provideService(CurrentOrganization, defaultOrganizationId))
        yield* roleWith("staff", ["team.read"])
        yield* deliverEvents()
        yield* deliverEvents()
        assert.deepStrictEqual(sender.sent, [], "nothing unsigned leaves")
        const [delivery] = yield* (yield* DeliveryStore)
          .page(WebhookId.make("whk-edge-0"), undefined, undefined, 5)
          .pipe(Effect.provideService(CurrentOrganization, defaultOrganizationId))
        assert.strictEqual(delivery?.status, "failed")
        assert.match(delivery?.lastError ?? "", /ROSTER_SECRETS_KEY/u)
      }).pipe(Effect.provide(boxOfTwoKeys), withSender(sender))
    }
  )
})

describe("whom an endpoint hears as", () => {
  const every = (held: ReadonlySet<number>) => held.size
  it.effect(
    "the operator, open local mode, an unknown maker and any other kind of caller hear as the operator",
    () =>
      Effect.gen(function* () {
        for (const creator of [
          undefined,
          { kind: "master" },
          { kind: "open" },
          { kind: "scim", id: "scim-1" }
        ] as const) {
          assert.strictEqual(
            every(yield* creatorPermissions(creator as AuditActor | undefined)),
            PermissionCatalog.length,
            JSON.stringify(creator)
          )
        }
      }).pipe(provideRoster())
  )

  it.effect(
    "a member while member, account and role are active; a key while neither revoked nor expired",
    () =>
      Effect.gen(function* () {
        const lead = yield* actorWith("lead", ["team.read", "organization.webhooks.write"])
        const asMember = { kind: "member", id: lead.member.id } as const
        assert.deepStrictEqual([...(yield* creatorPermissions(asMember))].sort(), [1, 11])
        yield* updateRole(master, lead.role.id, { activeStatus: false })
        assert.strictEqual((yield* creatorPermissions(asMember)).size, 0, "its role off")
        yield* updateRole(master, lead.role.id, { activeStatus: true })
        yield* removeMember(master, lead.member.id)
        assert.strictEqual((yield* creatorPermissions(asMember)).size, 0, "gone")
        const soon = DateTime.add(yield* DateTime.now, { minutes: 5 })
        const key = yield* createApiKey(master, { name: "sync", permissions: ["team.read"], expiresAt: soon })
        const asKey = { kind: "api_key", id: key.apiKey.id } as const
        assert.deepStrictEqual([...(yield* creatorPermissions(asKey))], [1])
        yield* TestClock.adjust("6 minutes")
        assert.strictEqual((yield* creatorPermissions(asKey)).size, 0, "expired")
        const other = yield* createApiKey(master, { name: "other", permissions: ["team.read"] })
        yield* revokeApiKey(master, other.apiKey.id)
        assert.strictEqual(
          (yield* creatorPermissions({ kind: "api_key", id: other.apiKey.id })).size,
          0,
          "revoked"
        )
      }).pipe(provideRoster())
  )

  it.effect("a change of an endpoint's events is held to the changer's permissions", () =>
    Effect.gen(function* () {
      const made = yield* createWebhook(master, {
        url: "https://hooks.example.com/x",
        events: ["webhook.test"]
      })
      const hooks = yield* actorWith("hooks", ["organization.webhooks.write"])
      const refused = yield* refusal(
        updateWebhook(hooks.principal, made.webhook.id, { events: ["member.added"] })
      )
      assert.strictEqual((refused as { permission?: string }).permission, "team.read")
      const kept = yield* updateWebhook(hooks.principal, made.webhook.id, { events: ["*"] })
      assert.lengthOf(
        kept.effectiveEvents,
        Object.keys(eventCatalog).length,
        "it still hears as the operator who made it"
      )
    }).pipe(provideRoster())
  )
})

describe("two kinds of guesses", () => {
  it.effect("are limited together across windows: past passwords and present codes sum", () =>
    Effect.gen(function* () {
      const ada = yield* memberWithTotp("ada", client)
      yield* TestClock.adjust("14 minutes")
      for (let n = 0; n < 3; n++) {
        assert.instanceOf(
          yield* refusal(logIn({ username: "ada", password: Redacted.make("wrong password"), client })),
          Object,
          `wrong password ${n + 1}`
        )
      }
      // The next window, at its very start: the last one's three password failures still weigh whole.
      const now = DateTime.toEpochMillis(yield* DateTime.now)
      yield* TestClock.adjust(15 * 60_000 - (now % (15 * 60_000)) + 1)
      const challenge = yield* Effect.flatMap(
        logIn({ username: "ada", ...proof, client: "198.51.100.2" }),
        (a) => ("challenge" in a ? Effect.succeed(a.challenge) : Effect.die("a challenge"))
      )
      const outcomes: Array<string> = []
      for (let n = 0; n < 3; n++) {
        const refused = yield* refusal(verifyMfa({ challenge, code: "000000", client }))
        outcomes.push(refused instanceof RateLimited ? "429" : "401")
      }
      assert.deepStrictEqual(
        outcomes,
        ["401", "401", "429"],
        "three past and three present make six: over five"
      )
      assert.isDefined(ada.secret)
    }).pipe(provideRoster({ secretsKeys: ["edge-secrets-key-long-enough-000000063"] }))
  )

  it.effect("a sixth wrong password of the same client is refused, the fifth is not", () =>
    Effect.gen(function* () {
      yield* actorWith("bob", ["team.read"])
      const outcomes: Array<string> = []
      for (let n = 0; n < 6; n++) {
        const refused = yield* refusal(
          logIn({ username: "bob", password: Redacted.make("wrong password"), client })
        )
        outcomes.push(refused instanceof RateLimited ? "429" : "401")
      }
      assert.deepStrictEqual(outcomes, ["401", "401", "401", "401", "401", "429"])
    }).pipe(provideRoster())
  )
})

describe("a new address asked for", () => {
  it.effect("is refused where no such mail is sent, and sends nothing for the address one has", () => {
    const box = mailbox()
    return Effect.gen(function* () {
      const ada = yield* actorWith("ada", ["team.read"])
      assert.isFalse(
        yield* requestEmailChange(
          ada.principal,
          { email: "ADA@example.com", password: proof.password },
          client
        )
      )
      assert.lengthOf(box.sentTo("ada@example.com", "email_change"), 0)
    }).pipe(provideRoster({ accountMail: box.accountMail }))
  })

  it.effect("is off without the mail", () =>
    Effect.gen(function* () {
      const ada = yield* actorWith("ada", ["team.read"])
      const refused = yield* refusal(
        requestEmailChange(ada.principal, { email: "new@example.com", password: proof.password }, client)
      )
      assert.strictEqual((refused as MailOff).purpose, "email_change")
    }).pipe(provideRoster())
  )

  it.effect(
    "by a session whose account is gone is refused as unauthenticated; enrolling without a secrets key with a master key is refused first",
    () =>
      Effect.gen(function* () {
        const ada = yield* actorWith("ada", ["team.read"])
        yield* removeMember(master, ada.member.id)
        assert.instanceOf(yield* refusal(enrolTotp(ada.principal, proof, client)), SecretsKeyRequired)
      }).pipe(provideRoster())
  )

  it.effect("by a session whose account is gone, with a secrets key, is refused as unauthenticated", () =>
    Effect.gen(function* () {
      const ada = yield* actorWith("ada", ["team.read"])
      yield* addMember(master, memberInput("keep", (yield* roleWith("keepers", ["team.read"])).id))
      yield* removeMember(master, ada.member.id)
      assert.instanceOf(yield* refusal(enrolTotp(ada.principal, proof, client)), Unauthenticated)
      assert.strictEqual(permissionIdOf("team.read"), 1)
    }).pipe(provideRoster({ secretsKeys: ["edge-secrets-key-long-enough-000000063"] }))
  )
})
