import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import {
  type AcceptInvitationInput,
  acceptInvitation,
  CurrentOrganization,
  createApiKey,
  createOrganization,
  deleteOrganization,
  type Forbidden,
  InvitationInvalid,
  inviteMember,
  MemberStore,
  MfaInvalid,
  type MissingField,
  RoleStore,
  revokeInvitation,
  setAccountStatus
} from "../../core/index.ts"
import { auditRecord } from "../support/audit.ts"
import { invitationMailbox } from "../support/invitation-mail.ts"
import { master, password, provideRoster, readersAdaAndBob, refusal, roleWith } from "../support/roster.ts"
import { memberWithTotp, totpCodeNow } from "../support/totp.ts"

const client = "192.0.2.9"
const secret = (text: string) => Redacted.make(text)

/** A deployment that mails invitations, and what it mailed. */
const mailed = invitationMailbox()

/**
 * An invitation into Acme's staff role for `email`: its token (as answered, or as mailed), and how
 * to act in Acme.
 */
const invitedToAcme = (email: string) =>
  Effect.gen(function* () {
    const acme = yield* createOrganization(master, { name: "Acme", slug: "acme" })
    const inAcme = Effect.provideService(CurrentOrganization, acme.id)
    const staff = yield* inAcme(roleWith("staff", []))
    const { invitation, token } = yield* inAcme(inviteMember(master, { email, roleId: staff.id }))
    const sent = mailed.sent.at(-1)?.token
    return { inAcme, staff, invitation, token: Option.getOrElse(token, () => sent ?? Redacted.make("")) }
  })

const accept = (token: Redacted.Redacted<string>, fields: Partial<AcceptInvitationInput> = {}) =>
  acceptInvitation(Option.none(), { token, client, ...fields })

describe("accepting an invitation as a new account", () => {
  it.effect(
    "needs a username and a password; the member joins active, its address unproven without mail",
    () =>
      Effect.gen(function* () {
        const { token, staff } = yield* invitedToAcme("new@example.com")
        const noName = yield* refusal(accept(token, { password: secret(password) }))
        assert.deepStrictEqual(
          [(noName as MissingField).field, (noName as MissingField).purpose],
          ["username", "new_account"]
        )
        const noPassword = yield* refusal(accept(token, { username: "newcomer" }))
        assert.deepStrictEqual(
          [(noPassword as MissingField).field, (noPassword as MissingField).purpose],
          ["password", "new_account"]
        )
        const session = yield* accept(token, { username: "newcomer", password: secret(password) })
        assert.deepStrictEqual(
          [
            session.member.username,
            session.member.roleId,
            session.member.activestatus,
            session.member.emailVerified
          ],
          ["newcomer", staff.id, true, false]
        )
        assert.strictEqual(session.organization.slug, "acme")
      }).pipe(provideRoster())
  )

  it.effect("proves the address when the deployment mailed the token", () =>
    Effect.gen(function* () {
      const { token, inAcme } = yield* invitedToAcme("new@example.com")
      const session = yield* accept(token, { username: "newcomer", password: secret(password) })
      assert.isTrue(session.member.emailVerified)
      assert.isTrue(session.member.accountActiveStatus)
      const actions = (yield* inAcme(auditRecord)).map((entry) => entry.action)
      assert.notInclude(
        actions,
        "email.verified",
        "a new account is made proven, with nothing to record after"
      )
    }).pipe(provideRoster({ invitationMail: mailed.layer }))
  )
})

describe("an invitation that is worth nothing", () => {
  it.effect(
    "is an unknown token, a revoked one, an expired one, and one whose role or organisation went",
    () =>
      Effect.gen(function* () {
        assert.instanceOf(yield* refusal(accept(secret("rsi_unknown"))), InvitationInvalid)
        const revoked = yield* invitedToAcme("one@example.com")
        yield* revoked.inAcme(revokeInvitation(master, revoked.invitation.id))
        const details = { username: "someone", password: secret(password) }
        assert.instanceOf(yield* refusal(accept(revoked.token, details)), InvitationInvalid)
        const { token: late } = yield* revoked.inAcme(
          inviteMember(master, { email: "late@example.com", roleId: revoked.staff.id })
        )
        yield* TestClock.adjust("8 days")
        assert.instanceOf(yield* refusal(accept(Option.getOrThrow(late), details)), InvitationInvalid)
        const { token: fresh } = yield* revoked.inAcme(
          inviteMember(master, { email: "fresh@example.com", roleId: revoked.staff.id })
        )
        const roles = yield* RoleStore
        yield* revoked.inAcme(roles.remove(revoked.staff.id, undefined))
        assert.instanceOf(yield* refusal(accept(Option.getOrThrow(fresh), details)), InvitationInvalid)
        assert.isTrue(Option.isNone(yield* (yield* MemberStore).findByLogin("someone")))
        const actions = (yield* revoked.inAcme(auditRecord)).map((entry) => entry.action)
        assert.notInclude(actions, "member.added", "nobody was added, even for a moment")
      }).pipe(provideRoster())
  )

  it.effect("is one whose organisation was deleted", () =>
    Effect.gen(function* () {
      const { token, inAcme } = yield* invitedToAcme("new@example.com")
      yield* inAcme(deleteOrganization(master))
      assert.instanceOf(
        yield* refusal(accept(token, { username: "newcomer", password: secret(password) })),
        InvitationInvalid
      )
    }).pipe(provideRoster())
  )
})

describe("accepting an invitation with an existing account", () => {
  it.effect("refuses a disabled account", () =>
    Effect.gen(function* () {
      const { ada } = yield* readersAdaAndBob
      yield* setAccountStatus(master, { memberId: ada.id, active: false })
      const { token } = yield* invitedToAcme("ada@example.com")
      const refused = yield* refusal(accept(token, { password: secret(password) }))
      assert.strictEqual((refused as Forbidden).reason, "inactive")
    }).pipe(provideRoster())
  )

  it.effect("proves an unproven address when the token was mailed, and records it; not otherwise", () =>
    Effect.gen(function* () {
      const { ada } = yield* readersAdaAndBob
      const { token, inAcme } = yield* invitedToAcme("ada@example.com")
      const session = yield* accept(token, { password: secret(password) })
      assert.isTrue(session.member.emailVerified)
      const verified = (yield* inAcme(auditRecord)).filter((entry) => entry.action === "email.verified")
      assert.lengthOf(verified, 1)
      assert.deepStrictEqual(verified[0]?.target, { type: "member", id: ada.id })
      assert.deepStrictEqual(verified[0]?.actor, { kind: "member", id: ada.id })
    }).pipe(provideRoster({ invitationMail: mailed.layer }))
  )

  it.effect("leaves the address unproven when the creator handed the token on", () =>
    Effect.gen(function* () {
      yield* readersAdaAndBob
      const { token, inAcme } = yield* invitedToAcme("ada@example.com")
      const session = yield* accept(token, { password: secret(password) })
      assert.isFalse(session.member.emailVerified)
      assert.lengthOf(
        (yield* inAcme(auditRecord)).filter((entry) => entry.action === "email.verified"),
        0
      )
    }).pipe(provideRoster())
  )
})

describe("an existing account with TOTP accepting by its password", () => {
  it.effect("needs a code as well, and a right one", () =>
    Effect.gen(function* () {
      const { member, secret: key } = yield* memberWithTotp("ada", client)
      const { token } = yield* invitedToAcme(member.email)
      const noCode = yield* refusal(accept(token, { password: secret(password) }))
      assert.deepStrictEqual(
        [(noCode as MissingField).field, (noCode as MissingField).purpose],
        ["code", "account_proof"]
      )
      assert.instanceOf(
        yield* refusal(accept(token, { password: secret(password), code: "000000" })),
        MfaInvalid
      )
      const session = yield* accept(token, { password: secret(password), code: yield* totpCodeNow(key) })
      assert.strictEqual(session.member.id, member.id)
      assert.strictEqual(session.organization.slug, "acme")
    }).pipe(provideRoster({ secretsKeys: ["unit-test-secrets-key-long-enough-0001"] }))
  )
})

describe("accepting with a machine's credentials", () => {
  it.effect("takes an API key for no person: the account's own password is needed", () =>
    Effect.gen(function* () {
      const { ada } = yield* readersAdaAndBob
      const { key } = yield* createApiKey(master, { name: "Sync", permissions: ["team.read"] })
      const { token } = yield* invitedToAcme("ada@example.com")
      const asKey = (fields: Partial<AcceptInvitationInput>) =>
        acceptInvitation(Option.some(key), { token, client, ...fields })
      const missing = yield* refusal(asKey({}))
      assert.deepStrictEqual(
        [(missing as MissingField).field, (missing as MissingField).purpose],
        ["password", "account_proof"]
      )
      const session = yield* asKey({ password: secret(password) })
      assert.strictEqual(session.member.id, ada.id)
    }).pipe(provideRoster())
  )
})
