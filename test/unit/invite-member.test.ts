import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Option, Redacted } from "effect"
import {
  AlreadyMember,
  CurrentOrganization,
  createOrganization,
  InvitationStore,
  inviteMember,
  MailUnavailable,
  RoleId,
  UnknownRole
} from "../../core/index.ts"
import { auditRecord } from "../support/audit.ts"
import { invitationMailbox } from "../support/invitation-mail.ts"
import { failureOf, master, provideRoster, readersAdaAndBob, roleWith } from "../support/roster.ts"

const invitationsOf = (email: string) =>
  Effect.gen(function* () {
    return yield* (yield* InvitationStore).page({ email, now: yield* DateTime.now }, 10)
  })

describe("inviting a member", () => {
  it.effect("refuses a role that does not exist, keeping nothing", () =>
    Effect.gen(function* () {
      const error = failureOf(
        yield* Effect.exit(inviteMember(master, { email: "new@example.com", roleId: RoleId.make(999) }))
      )
      assert.instanceOf(error, UnknownRole)
      assert.strictEqual((error as UnknownRole).roleId, 999)
      assert.lengthOf(yield* invitationsOf("new@example.com"), 0)
      assert.lengthOf(yield* auditRecord, 0)
    }).pipe(provideRoster())
  )

  it.effect(
    "refuses a member of this organisation by any spelling of the e-mail, not one from elsewhere",
    () =>
      Effect.gen(function* () {
        yield* readersAdaAndBob
        const staff = yield* roleWith("staff", [])
        const error = failureOf(
          yield* Effect.exit(inviteMember(master, { email: " ADA@Example.com ", roleId: staff.id }))
        )
        assert.instanceOf(error, AlreadyMember)
        assert.strictEqual((error as AlreadyMember).email, "ada@example.com")
        const acme = yield* createOrganization(master, { name: "Acme", slug: "acme" })
        const inAcme = Effect.provideService(CurrentOrganization, acme.id)
        const acmeStaff = yield* inAcme(roleWith("staff", []))
        const invited = yield* inAcme(
          inviteMember(master, { email: "ada@example.com", roleId: acmeStaff.id })
        )
        assert.strictEqual(invited.invitation.email, "ada@example.com")
        assert.isTrue(Option.isSome(invited.token))
      }).pipe(provideRoster())
  )

  it.effect(
    "lasts seven days unless the deployment says otherwise, the entry holding the instant as text",
    () =>
      Effect.gen(function* () {
        const staff = yield* roleWith("staff", [])
        const now = yield* DateTime.now
        const { invitation, token } = yield* inviteMember(master, {
          email: "cy@example.com",
          roleId: staff.id
        })
        assert.strictEqual(
          DateTime.toEpochMillis(invitation.expiresAt) - DateTime.toEpochMillis(now),
          7 * 86_400_000
        )
        assert.strictEqual(invitation.status, "pending")
        assert.match(Redacted.value(Option.getOrThrow(token)), /^rsi_/)
        const [entry] = yield* auditRecord
        assert.strictEqual(entry?.action, "invitation.created")
        assert.deepStrictEqual(entry?.target, { type: "invitation", id: invitation.id })
        assert.deepStrictEqual(entry?.changes, {
          email: [null, "cy@example.com"],
          roleId: [null, staff.id],
          expiresAt: [null, DateTime.formatIso(invitation.expiresAt)]
        })
      }).pipe(provideRoster())
  )

  it.effect("lasts as long as the deployment's invitation lifetime", () =>
    Effect.gen(function* () {
      const staff = yield* roleWith("staff", [])
      const now = yield* DateTime.now
      const { invitation } = yield* inviteMember(master, { email: "cy@example.com", roleId: staff.id })
      assert.strictEqual(
        DateTime.toEpochMillis(invitation.expiresAt) - DateTime.toEpochMillis(now),
        Duration.toMillis(Duration.hours(2))
      )
    }).pipe(provideRoster({ invitationTtl: "2 hours" }))
  )

  it.effect("mails the token when the deployment sends mail, answering none", () => {
    const { sent, layer } = invitationMailbox()
    return Effect.gen(function* () {
      const staff = yield* roleWith("staff", [])
      const { invitation, token } = yield* inviteMember(master, {
        email: "Dee@Example.com",
        roleId: staff.id
      })
      assert.isTrue(Option.isNone(token))
      assert.lengthOf(sent, 1)
      const [message] = sent
      assert.strictEqual(message?.to, "dee@example.com")
      assert.strictEqual(message?.organization.id, yield* CurrentOrganization)
      assert.match(Redacted.value(message?.token ?? Redacted.make("")), /^rsi_/)
      assert.isTrue(message !== undefined && DateTime.Equivalence(message.expiresAt, invitation.expiresAt))
      const [stored] = yield* invitationsOf("dee@example.com")
      assert.strictEqual(stored?.status, "pending")
    }).pipe(provideRoster({ invitationMail: layer }))
  })

  it.effect("revokes an invitation whose message the mail server refused, and says so", () =>
    Effect.gen(function* () {
      const staff = yield* roleWith("staff", [])
      const error = failureOf(
        yield* Effect.exit(inviteMember(master, { email: "eve@example.com", roleId: staff.id }))
      )
      assert.instanceOf(error, MailUnavailable)
      const [stored] = yield* invitationsOf("eve@example.com")
      if (stored === undefined) return assert.fail("the invitation is kept, revoked")
      assert.strictEqual(stored.status, "revoked")
      const [revoked, created] = yield* auditRecord
      assert.strictEqual(created?.action, "invitation.created")
      assert.strictEqual(revoked?.action, "invitation.revoked")
      assert.deepStrictEqual(revoked?.target, { type: "invitation", id: stored.id })
      assert.deepStrictEqual(revoked?.actor, { kind: "master" })
    }).pipe(provideRoster({ invitationMail: invitationMailbox(true).layer }))
  )
})
