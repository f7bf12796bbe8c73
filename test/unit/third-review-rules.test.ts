// The rules a third outside review asked for (DESIGN §1i round 3, §1c, §1h), proven on the core with
// the in-memory adapters: each test fails on the code before the fix.
import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import {
  addMember,
  authenticate,
  authenticateApiKey,
  CurrentOrganization,
  changeOwnPassword,
  confirmTotp,
  createApiKey,
  createWebhook,
  defaultOrganizationId,
  EventType,
  enrolTotp,
  Forbidden,
  getMember,
  getWebhook,
  grantPermission,
  logIn,
  MfaInvalid,
  mfaStatus,
  type Principal,
  permissionIdOf,
  RateLimited,
  regenerateRecoveryCodes,
  removeMember,
  removeTotp,
  replaceProvisionedUser,
  requestEmailChange,
  requestEmailVerification,
  requestPasswordReset,
  resetPassword,
  revokeApiKey,
  ScimTokenId,
  setAccountStatus,
  setMemberPassword,
  TokenInvalid,
  updateMember,
  verifyEmail,
  verifyMfa
} from "../../core/index.ts"
import { auditRecord } from "../support/audit.ts"
import { mailbox } from "../support/mailbox.ts"
import {
  actorWith,
  logInAs,
  master,
  memberInput,
  password,
  provideRoster,
  refusal,
  roleWith
} from "../support/roster.ts"
import { memberWithTotp, totpCodeNow } from "../support/totp.ts"
import { recordingSender, roundsUntilIdle, withSender } from "../support/webhook-sending.ts"

const client = "192.0.2.61"
const proof = { password: Redacted.make(password) }
const provide = provideRoster({ secretsKeys: ["unit-test-secrets-key-long-enough-0061"] })

const actions = Effect.map(auditRecord, (entries) => entries.map((entry) => entry.action))

const challengeOf = (from: string) =>
  Effect.flatMap(logIn({ username: "ada", ...proof, client: from }), (answer) =>
    "challenge" in answer ? Effect.succeed(answer.challenge) : Effect.die(new Error("a challenge"))
  )

describe("replacing a second factor that is on (hole 1)", () => {
  it.effect("needs a code of the active factor, not the password alone, and is audited as a swap", () =>
    Effect.gen(function* () {
      const ada = yield* memberWithTotp("ada", client)
      assert.instanceOf(yield* refusal(enrolTotp(ada.principal, proof, client)), MfaInvalid)
      assert.instanceOf(
        yield* refusal(enrolTotp(ada.principal, { ...proof, code: "000000" }, client)),
        MfaInvalid
      )
      const started = yield* enrolTotp(
        ada.principal,
        { ...proof, code: yield* totpCodeNow(ada.secret) },
        client
      )
      const fresh = Redacted.value(started.secret)
      assert.deepStrictEqual(
        yield* mfaStatus(ada.principal),
        { totp: true, recoveryCodesLeft: 10 },
        "the active factor and its codes stay until the new one is confirmed"
      )
      const { recoveryCodes } = yield* confirmTotp(ada.principal, { code: yield* totpCodeNow(fresh, 1) })
      assert.lengthOf(recoveryCodes, 10)
      const mfaActions = (yield* actions).filter(
        (action) => action.startsWith("mfa.enabled") || action === "mfa.replaced"
      )
      assert.deepStrictEqual(
        mfaActions,
        ["mfa.replaced", "mfa.enabled"],
        "newest first: enabled, then replaced"
      )
      const challenge = yield* challengeOf(client)
      assert.instanceOf(
        yield* refusal(verifyMfa({ challenge, code: ada.recoveryCodes[0] ?? "", client })),
        MfaInvalid,
        "the replaced factor's recovery codes went with it"
      )
      const [first] = recoveryCodes
      assert.isDefined(first)
      const session = yield* verifyMfa({ challenge, code: Redacted.value(first), client })
      assert.strictEqual(session.member.id, ada.member.id)
    }).pipe(provide)
  )

  it.effect("also needs the code to make new recovery codes, which would otherwise be a way in", () =>
    Effect.gen(function* () {
      const ada = yield* memberWithTotp("ada", client)
      assert.instanceOf(yield* refusal(regenerateRecoveryCodes(ada.principal, proof, client)), MfaInvalid)
      assert.notInclude(yield* actions, "mfa.recovery_codes_regenerated")
    }).pipe(provide)
  )
})

describe("wrong codes (hole 2)", () => {
  it.effect("count on the login throttle wherever they are tried, and the right password clears none", () =>
    Effect.gen(function* () {
      const ada = yield* memberWithTotp("ada", client)
      for (let tries = 0; tries < 5; tries++) {
        assert.instanceOf(
          yield* refusal(removeTotp(ada.principal, { ...proof, code: "000000" }, client)),
          MfaInvalid,
          `try ${tries + 1}`
        )
      }
      assert.instanceOf(
        yield* refusal(removeTotp(ada.principal, { ...proof, code: yield* totpCodeNow(ada.secret) }, client)),
        RateLimited,
        "the sixth guess is refused, right or wrong"
      )
      assert.instanceOf(yield* refusal(challengeOf(client)), RateLimited, "a login from there too")
      assert.isTrue((yield* mfaStatus(ada.principal)).totp, "still on")
      const elsewhere = yield* challengeOf("198.51.100.7")
      yield* verifyMfa({ challenge: elsewhere, code: yield* totpCodeNow(ada.secret), client: "198.51.100.7" })
    }).pipe(provide)
  )

  it.effect("at the login's second step are not forgotten by signing in again with the password", () =>
    Effect.gen(function* () {
      const ada = yield* memberWithTotp("ada", client)
      for (let round = 0; round < 5; round++) {
        const challenge = yield* challengeOf(client)
        assert.instanceOf(yield* refusal(verifyMfa({ challenge, code: "000000", client })), MfaInvalid)
      }
      assert.instanceOf(yield* refusal(challengeOf(client)), RateLimited)
      const elsewhere = yield* challengeOf("198.51.100.7")
      const session = yield* verifyMfa({
        challenge: elsewhere,
        code: yield* totpCodeNow(ada.secret),
        client: "198.51.100.7"
      })
      assert.strictEqual(session.member.id, ada.member.id, "the owner, from elsewhere, is not locked out")
    }).pipe(provide)
  )
})

/** Lets what a request forked off its path (a mail) run. */
const settle = Effect.forEach([1, 2, 3, 4, 5, 6, 7, 8], () => Effect.yieldNow, { discard: true })

describe("a reset or verification link (hole 3)", () => {
  const newPassword = Redacted.make("a brand new passphrase")
  const linksFor = (box: ReturnType<typeof mailbox>) =>
    Effect.gen(function* () {
      yield* requestPasswordReset({ email: "ada@example.com", client })
      yield* settle
      const none = Redacted.make("none sent")
      const reset = box.sentTo("ada@example.com", "password_reset").at(-1)?.token ?? none
      const ada = yield* authenticate(Option.some((yield* logInAs("ada")).token))
      yield* requestEmailVerification(ada, client)
      const verify = box.sentTo("ada@example.com", "email_verification").at(-1)?.token ?? none
      return { reset, verify, ada }
    })
  const bothRefused = (links: {
    readonly reset: Redacted.Redacted<string>
    readonly verify: Redacted.Redacted<string>
  }) =>
    Effect.gen(function* () {
      assert.instanceOf(yield* refusal(resetPassword({ token: links.reset, newPassword })), TokenInvalid)
      assert.instanceOf(yield* refusal(verifyEmail({ token: links.verify })), TokenInvalid)
    })

  it.effect("ends when the person changes their password themselves", () => {
    const box = mailbox()
    return Effect.gen(function* () {
      yield* actorWith("ada", ["team.read"])
      const links = yield* linksFor(box)
      yield* changeOwnPassword(links.ada, { currentPassword: proof.password, newPassword }, client)
      yield* bothRefused(links)
    }).pipe(provideRoster({ accountMail: box.accountMail }))
  })

  it.effect("ends when an administrator sets the password", () => {
    const box = mailbox()
    return Effect.gen(function* () {
      const { member } = yield* actorWith("ada", ["team.read"])
      const links = yield* linksFor(box)
      yield* setMemberPassword(master, member.id, { newPassword })
      yield* bothRefused(links)
    }).pipe(provideRoster({ accountMail: box.accountMail }))
  })

  it.effect("ends when the account is disabled, even once it is enabled again", () => {
    const box = mailbox()
    return Effect.gen(function* () {
      const { member } = yield* actorWith("ada", ["team.read"])
      const links = yield* linksFor(box)
      yield* setAccountStatus(master, { memberId: member.id, active: false })
      assert.instanceOf(
        yield* refusal(resetPassword({ token: links.reset, newPassword })),
        TokenInvalid,
        "a reset of a disabled account"
      )
      yield* setAccountStatus(master, { memberId: member.id, active: true })
      yield* bothRefused(links)
    }).pipe(provideRoster({ accountMail: box.accountMail }))
  })

  it.effect("ends when a reset sets the password: the other link of the same time is worth nothing", () => {
    const box = mailbox()
    return Effect.gen(function* () {
      yield* actorWith("ada", ["team.read"])
      const links = yield* linksFor(box)
      yield* resetPassword({ token: links.reset, newPassword })
      assert.instanceOf(yield* refusal(verifyEmail({ token: links.verify })), TokenInvalid)
    }).pipe(provideRoster({ accountMail: box.accountMail }))
  })

  it.effect("still works when nothing ended the account's sessions", () => {
    const box = mailbox()
    return Effect.gen(function* () {
      yield* actorWith("ada", ["team.read"])
      const links = yield* linksFor(box)
      const verified = yield* verifyEmail({ token: links.verify })
      assert.isTrue(verified.emailVerified)
      yield* resetPassword({ token: links.reset, newPassword })
    }).pipe(provideRoster({ accountMail: box.accountMail }))
  })
})

describe("another member's e-mail (hole 4)", () => {
  it.effect("is changed only with admin.accounts.write, and the old address is told", () => {
    const box = mailbox()
    return Effect.gen(function* () {
      const { member: bob } = yield* actorWith("bob", ["team.read"])
      const lead = yield* actorWith("lead", ["team.read", "team.members.write"])
      const refused = yield* refusal(updateMember(lead.principal, bob.id, { email: "lead@evil.example" }))
      assert.instanceOf(refused, Forbidden)
      assert.strictEqual((refused as Forbidden).permission, "admin.accounts.write")
      assert.strictEqual((yield* getMember(master, bob.id)).email, "bob@example.com", "nothing changed")
      const admin = yield* actorWith("admin", ["team.read", "team.members.write", "admin.accounts.write"])
      const moved = yield* updateMember(admin.principal, bob.id, { email: "bob@new.example" })
      assert.strictEqual(moved.email, "bob@new.example")
      assert.isFalse(moved.emailVerified)
      yield* settle
      assert.deepStrictEqual(
        box.told.map((notice) => [notice.to, notice.newEmail]),
        [["bob@example.com", "bob@new.example"]]
      )
      const renamed = yield* updateMember(lead.principal, bob.id, { username: "robert" })
      assert.strictEqual(renamed.username, "robert", "the username is no key to the account")
      yield* settle
      assert.lengthOf(box.told, 1, "a new username tells nobody")
    }).pipe(provideRoster({ accountMail: box.accountMail }))
  })

  it.effect("cannot be one's own, which only a link to the new address changes", () => {
    const box = mailbox()
    return Effect.gen(function* () {
      const admin = yield* actorWith("admin", ["team.read", "team.members.write", "admin.accounts.write"])
      const refused = yield* refusal(
        updateMember(admin.principal, admin.member.id, { email: "me@new.example" })
      )
      assert.strictEqual((refused as Forbidden).reason, "own_email")
      assert.isTrue(
        yield* requestEmailChange(
          admin.principal,
          { email: "me@new.example", password: proof.password },
          client
        )
      )
      yield* settle
      assert.strictEqual((yield* getMember(master, admin.member.id)).email, "admin@example.com", "not yet")
      const link = box.sentTo("me@new.example", "email_change").at(-1)?.token ?? Redacted.make("none")
      const moved = yield* verifyEmail({ token: link })
      assert.deepStrictEqual([moved.email, moved.emailVerified], ["me@new.example", true])
      yield* settle
      assert.deepStrictEqual(
        box.told.map((notice) => notice.to),
        ["admin@example.com"]
      )
      assert.instanceOf(yield* refusal(verifyEmail({ token: link })), TokenInvalid, "once")
    }).pipe(provideRoster({ accountMail: box.accountMail }))
  })

  it.effect("through SCIM takes a token made by one who holds admin.accounts.write", () =>
    Effect.gen(function* () {
      const { member: bob } = yield* actorWith("bob", ["team.read"])
      const scim = (permissions: ReadonlyArray<Parameters<typeof permissionIdOf>[0]>): Principal => ({
        _tag: "Scim",
        tokenId: ScimTokenId.make("scim-61"),
        organizationId: defaultOrganizationId,
        permissionIds: permissions.map(permissionIdOf)
      })
      const input = { userName: "bob", email: "bob@evil.example" }
      const refused = yield* refusal(
        replaceProvisionedUser(scim(["team.read", "team.members.write"]), bob.id, input, Option.none())
      )
      assert.strictEqual((refused as Forbidden).permission, "admin.accounts.write")
      yield* replaceProvisionedUser(
        scim(["team.read", "team.members.write", "admin.accounts.write"]),
        bob.id,
        input,
        Option.none()
      )
      assert.strictEqual((yield* getMember(master, bob.id)).email, "bob@evil.example")
    }).pipe(Effect.provideService(CurrentOrganization, defaultOrganizationId), provide)
  )
})

describe("what an endpoint hears (§1h round 3)", () => {
  const hook = { url: "https://hooks.example.com/roster" }

  it.effect(
    "is what its creator may read: named types they cannot read are refused, `*` is what they can",
    () => {
      const sender = recordingSender()
      return Effect.gen(function* () {
        const hooks = yield* actorWith("hooks", ["organization.webhooks.write"])
        const refused = yield* refusal(
          createWebhook(hooks.principal, { ...hook, events: ["member.updated"] })
        )
        assert.strictEqual((refused as Forbidden).permission, "team.read")
        const made = yield* createWebhook(hooks.principal, { ...hook, events: ["*"] })
        assert.deepStrictEqual(made.webhook.effectiveEvents, ["webhook.test"])
        assert.deepStrictEqual(made.webhook.createdBy, { kind: "member", id: hooks.member.id })
        const staff = yield* roleWith("staff", ["team.read"])
        yield* addMember(master, memberInput("carol", staff.id))
        yield* roundsUntilIdle
        assert.deepStrictEqual(sender.sent, [], "no member's e-mail for one who cannot read members")
        yield* grantPermission(master, { roleId: hooks.role.id, permissionId: permissionIdOf("team.read") })
        yield* addMember(master, memberInput("dave", staff.id))
        yield* roundsUntilIdle
        assert.include(
          sender.sent.map((message) => message.type),
          "member.added",
          "heard once the creator may read it"
        )
        const heard = sender.sent.length
        yield* removeMember(master, hooks.member.id)
        assert.deepStrictEqual((yield* getWebhook(master, made.webhook.id)).effectiveEvents, [])
        yield* addMember(master, memberInput("erin", staff.id))
        yield* roundsUntilIdle
        assert.strictEqual(sender.sent.length, heard, "nothing once the creator left")
      }).pipe(withSender(sender))
    }
  )

  it.effect("stops when the API key that made it is revoked; the operator's hear everything", () => {
    const sender = recordingSender()
    return Effect.gen(function* () {
      const key = yield* createApiKey(master, {
        name: "sync",
        permissions: ["organization.webhooks.write", "team.read"]
      })
      const keyPrincipal = yield* authenticateApiKey(key.key)
      const byKey = yield* createWebhook(keyPrincipal, { ...hook, events: ["member.added"] })
      const byOperator = yield* createWebhook(master, { ...hook, events: ["*"] })
      assert.lengthOf(byOperator.webhook.effectiveEvents, EventType.literals.length)
      const staff = yield* roleWith("staff", ["team.read"])
      yield* addMember(master, memberInput("carol", staff.id))
      yield* roundsUntilIdle
      const toKeys = () =>
        sender.sent.filter((message) => message.secrets[0] === Redacted.value(byKey.secret))
      assert.lengthOf(toKeys(), 1)
      yield* revokeApiKey(master, key.apiKey.id)
      yield* addMember(master, memberInput("dave", staff.id))
      yield* roundsUntilIdle
      assert.lengthOf(toKeys(), 1, "nothing once its key is revoked")
      assert.deepStrictEqual((yield* getWebhook(master, byKey.webhook.id)).effectiveEvents, [])
    }).pipe(withSender(sender))
  })
})
