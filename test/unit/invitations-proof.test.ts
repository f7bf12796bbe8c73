import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import {
  AuditLog,
  acceptInvitation,
  CurrentOrganization,
  createOrganization,
  Forbidden,
  InvalidCredentials,
  InvitationId,
  inviteMember,
  type MemberId,
  MemberStore,
  MissingField,
  NotFound,
  revokeInvitation
} from "../../core/index.ts"
import {
  actorWith,
  failureOf,
  logInAs,
  master,
  password,
  provideRoster,
  readersAdaAndBob,
  roleWith
} from "../support/roster.ts"

/** Ada, a member here, invited into Acme's staff role: the token, and how to act in Acme. */
const adaInvitedElsewhere = Effect.gen(function* () {
  const { ada } = yield* readersAdaAndBob
  const acme = yield* createOrganization(master, { name: "Acme", slug: "acme" })
  const inAcme = Effect.provideService(CurrentOrganization, acme.id)
  const staff = yield* inAcme(roleWith("staff", []))
  const invitation = yield* inAcme(inviteMember(master, { email: "ada@example.com", roleId: staff.id }))
  return { ada, acme, inAcme, token: Option.getOrThrow(invitation.token) }
})

const membershipsOf = (id: MemberId) =>
  Effect.gen(function* () {
    return (yield* (yield* MemberStore).membershipsOf(id)).length
  })

describe("accepting an invitation with an existing account", () => {
  it.effect(
    "asks for its password, refuses a wrong one and another account's session, and joins with its own",
    () =>
      Effect.gen(function* () {
        const { ada, token } = yield* adaInvitedElsewhere
        const accept = (bearer: Option.Option<Redacted.Redacted<string>>, proof?: string) =>
          acceptInvitation(bearer, {
            token,
            ...(proof === undefined ? {} : { password: Redacted.make(proof) }),
            client: "192.0.2.1"
          })
        const missing = failureOf(yield* Effect.exit(accept(Option.none())))
        assert.instanceOf(missing, MissingField)
        assert.strictEqual((missing as MissingField).purpose, "account_proof")
        assert.instanceOf(
          failureOf(yield* Effect.exit(accept(Option.none(), "not the password"))),
          InvalidCredentials
        )
        const bob = yield* logInAs("bob")
        const other = failureOf(yield* Effect.exit(accept(Option.some(bob.token))))
        assert.instanceOf(other, Forbidden)
        assert.strictEqual((other as Forbidden).reason, "other_account")
        assert.strictEqual(yield* membershipsOf(ada.id), 1, "nothing joined yet")
        const own = yield* logInAs("ada")
        yield* accept(Option.some(own.token))
        assert.strictEqual(yield* membershipsOf(ada.id), 2)
      }).pipe(provideRoster())
  )

  it.effect("joins with the account's password, the invitation then worth nothing", () =>
    Effect.gen(function* () {
      const { ada, token } = yield* adaInvitedElsewhere
      const accept = acceptInvitation(Option.none(), {
        token,
        password: Redacted.make(password),
        client: "192.0.2.1"
      })
      yield* accept
      assert.strictEqual(yield* membershipsOf(ada.id), 2)
      assert.isDefined(failureOf(yield* Effect.exit(accept)), "a used token")
    }).pipe(provideRoster())
  )
})

describe("revoking an invitation", () => {
  it.effect(
    "revokes a pending one once, answers one no longer pending as it is, and refuses who may not",
    () =>
      Effect.gen(function* () {
        const staff = yield* roleWith("staff", [])
        const admins = yield* roleWith("admins", ["team.read", "team.members.write", "audit.read"])
        const { invitation: pending } = yield* inviteMember(master, {
          email: "grace@example.com",
          roleId: staff.id
        })
        const { invitation: above } = yield* inviteMember(master, {
          email: "hopper@example.com",
          roleId: admins.id
        })
        const { principal: reader } = yield* actorWith("reader", ["team.read"])
        assert.instanceOf(failureOf(yield* Effect.exit(revokeInvitation(reader, pending.id))), Forbidden)
        const { principal: writer } = yield* actorWith("writer", ["team.read", "team.members.write"])
        assert.instanceOf(failureOf(yield* Effect.exit(revokeInvitation(writer, above.id))), Forbidden)
        assert.instanceOf(
          failureOf(yield* Effect.exit(revokeInvitation(master, InvitationId.make("nope")))),
          NotFound
        )
        const revoked = yield* revokeInvitation(writer, pending.id)
        assert.strictEqual(revoked.status, "revoked")
        const again = yield* revokeInvitation(master, pending.id)
        assert.strictEqual(again.status, "revoked")
        const entries = yield* (yield* AuditLog).page({ action: "invitation.revoked" }, 10)
        assert.lengthOf(entries, 1, "revoked once")
        assert.strictEqual(entries[0]?.actor.kind, "member")
        const aboveRevoked = yield* revokeInvitation(master, above.id)
        assert.strictEqual(aboveRevoked.status, "revoked")
      }).pipe(provideRoster())
  )
})
