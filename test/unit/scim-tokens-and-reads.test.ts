import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import {
  AuditLog,
  authenticateScim,
  createScimToken,
  Forbidden,
  getInvitation,
  getRolePermissions,
  InvitationId,
  inviteMember,
  listInvitations,
  NotFound,
  RoleId,
  revokeInvitation,
  revokeScimToken,
  ScimTokenId,
  type Unauthenticated
} from "../../core/index.ts"
import { actorWith, failureOf, master, provideRoster, roleWith } from "../support/roster.ts"

const reasonOf = (error: unknown) => (error as Unauthenticated).reason

describe("SCIM tokens", () => {
  it.effect("a token stands for its organisation until revoked; nothing else is a SCIM token", () =>
    Effect.gen(function* () {
      const made = yield* createScimToken(master, { name: "IdP" })
      const bearer = Option.some(made.token)
      const { principal, organizationId } = yield* authenticateScim(bearer)
      assert.deepStrictEqual(
        [principal._tag, principal._tag === "Scim" ? principal.tokenId : undefined, organizationId],
        ["Scim", made.scimToken.id, "default"]
      )
      assert.strictEqual(reasonOf(failureOf(yield* Effect.exit(authenticateScim(Option.none())))), "missing")
      const { token: session } = yield* actorWith("ada", ["team.read"])
      assert.strictEqual(
        reasonOf(failureOf(yield* Effect.exit(authenticateScim(Option.some(session))))),
        "invalid"
      )
      const { principal: reader2 } = yield* actorWith("bob", ["team.read"])
      assert.instanceOf(failureOf(yield* Effect.exit(revokeScimToken(reader2, made.scimToken.id))), Forbidden)
      const revoked = yield* revokeScimToken(master, made.scimToken.id)
      assert.strictEqual(revoked.id, made.scimToken.id)
      assert.strictEqual(reasonOf(failureOf(yield* Effect.exit(authenticateScim(bearer)))), "invalid")
      assert.instanceOf(failureOf(yield* Effect.exit(revokeScimToken(master, made.scimToken.id))), NotFound)
      assert.instanceOf(
        failureOf(yield* Effect.exit(revokeScimToken(master, ScimTokenId.make("nope")))),
        NotFound
      )
      const revocations = yield* (yield* AuditLog).page({ action: "scim_token.revoked" }, 10)
      assert.deepStrictEqual(
        revocations.map((entry) => entry.target.id),
        [made.scimToken.id]
      )
    }).pipe(provideRoster())
  )
})

describe("a role's permissions read by the role", () => {
  it.effect(
    "are its record once granted; a role never granted anything and a missing role are told apart",
    () =>
      Effect.gen(function* () {
        const empty = yield* roleWith("empty", [])
        const staff = yield* roleWith("staff", ["team.read", "audit.read"])
        const record = yield* getRolePermissions(master, staff.id)
        assert.deepStrictEqual([...record.permissionIds].map(Number).sort(), [1, 8])
        const none = failureOf(yield* Effect.exit(getRolePermissions(master, empty.id)))
        assert.deepStrictEqual(
          [(none as NotFound).entity, (none as NotFound).id],
          ["role_permission_detail", `of role ${empty.id}`]
        )
        const missing = failureOf(yield* Effect.exit(getRolePermissions(master, RoleId.make(999))))
        assert.deepStrictEqual([(missing as NotFound).entity, (missing as NotFound).id], ["role", "999"])
        const { principal } = yield* actorWith("nobody", [])
        assert.instanceOf(failureOf(yield* Effect.exit(getRolePermissions(principal, staff.id))), Forbidden)
      }).pipe(provideRoster())
  )
})

describe("reading invitations", () => {
  it.effect("one by id and a page filtered by what they are now, to those who may read the team", () =>
    Effect.gen(function* () {
      const staff = yield* roleWith("staff", [])
      const first = (yield* inviteMember(master, { email: "a@example.com", roleId: staff.id })).invitation
      const second = (yield* inviteMember(master, { email: "b@example.com", roleId: staff.id })).invitation
      const third = (yield* inviteMember(master, { email: "c@example.com", roleId: staff.id })).invitation
      yield* revokeInvitation(master, second.id)
      assert.strictEqual((yield* getInvitation(master, first.id)).status, "pending")
      assert.strictEqual((yield* getInvitation(master, second.id)).status, "revoked")
      assert.instanceOf(
        failureOf(yield* Effect.exit(getInvitation(master, InvitationId.make("nope")))),
        NotFound
      )
      const pending = yield* listInvitations(master, { status: "pending" })
      assert.deepStrictEqual(
        pending.items.map((invitation) => invitation.id),
        [first.id, third.id]
      )
      const page = yield* listInvitations(master, { limit: 2 })
      assert.deepStrictEqual(
        page.items.map((invitation) => invitation.id),
        [first.id, second.id]
      )
      const rest = yield* listInvitations(master, { limit: 2, after: Option.getOrThrow(page.next) })
      assert.deepStrictEqual(
        rest.items.map((invitation) => invitation.id),
        [third.id]
      )
      assert.isTrue(Option.isNone(rest.next))
      const { principal } = yield* actorWith("nobody", [])
      assert.instanceOf(failureOf(yield* Effect.exit(getInvitation(principal, first.id))), Forbidden)
      assert.instanceOf(failureOf(yield* Effect.exit(listInvitations(principal))), Forbidden)
    }).pipe(provideRoster())
  )
})
