import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Option, type Redacted } from "effect"
import { TestClock } from "effect/testing"
import {
  addMember,
  addRole,
  authenticate,
  defaultOrganizationId,
  getMember,
  type Member,
  type MemberId,
  MemberId as MemberIdSchema,
  MemberStore,
  Session,
  SessionId,
  SessionStore,
  setAccountStatus,
  TokenIssuer,
  Unauthenticated
} from "../../core/index.ts"
import { assertForbidden, assertMissingPermission, assertNotFound } from "../support/assertions.ts"
import {
  actorWith,
  logInAs,
  master,
  memberInput,
  provideRoster,
  roleWith,
  signedInMember
} from "../support/roster.ts"

/**
 * Stores a fresh, unexpired session for `memberId` without going through `logIn`,
 * so that `authenticate` itself can be tested against members `logIn` refuses.
 */
const plantSession = Effect.fnUntraced(function* (memberId: MemberId) {
  const member = Option.getOrThrow(yield* (yield* MemberStore).findById(memberId))
  const { token, hash } = yield* (yield* TokenIssuer).issue("session")
  const now = yield* DateTime.now
  yield* (yield* SessionStore).create(
    new Session({
      tokenHash: hash,
      memberId,
      organizationId: member.organizationId,
      memberEpoch: member.sessionEpoch,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: DateTime.addDuration(now, Duration.hours(1)),
      id: SessionId.make("ses_planted"),
      userAgent: null,
      address: null,
      mfaPending: false,
      amr: ["pwd"],
      authTime: now
    })
  )
  return token
})

/** Authenticates with a planted session, so that only the member's own state can refuse it. */
const authenticatePlanted = (memberId: MemberId) =>
  Effect.flatMap(plantSession(memberId), (token) => authenticate(Option.some(token)))

/** Asserts that `member` is refused as inactive both when signing in and when presenting a session. */
const assertRefusedAsInactive = Effect.fnUntraced(function* (member: Member) {
  assertForbidden(yield* Effect.flip(logInAs(member.username)), "inactive")
  assertForbidden(yield* Effect.flip(authenticatePlanted(member.id)), "inactive")
})

/** Asserts that a refused change left the account enabled and its session working. */
const assertStillActive = Effect.fnUntraced(function* (signedIn: {
  readonly member: Member
  readonly token: Redacted.Redacted<string>
}) {
  assert.isTrue((yield* getMember(master, signedIn.member.id)).accountActiveStatus)
  assert.strictEqual((yield* authenticate(Option.some(signedIn.token)))._tag, "Member")
})

describe("setAccountStatus", () => {
  it.effect("disabling clears the flag and revokes the member's sessions", () =>
    Effect.gen(function* () {
      const { member, token } = yield* signedInMember("alice", ["team.read"])
      const second = yield* logInAs("alice")
      assert.strictEqual((yield* authenticate(Option.some(token)))._tag, "Member")

      const updated = yield* setAccountStatus(master, { memberId: member.id, active: false })
      assert.isFalse(updated.accountActiveStatus)
      assert.strictEqual(updated.id, member.id)
      assert.isTrue(updated.activestatus, "membership is untouched")
      assert.isFalse((yield* getMember(master, member.id)).accountActiveStatus)

      for (const revoked of [token, second.token]) {
        const error = yield* Effect.flip(authenticate(Option.some(revoked)))
        assert.instanceOf(error, Unauthenticated)
      }
      // A disabled account cannot sign in again either.
      const login = yield* Effect.flip(logInAs("alice"))
      assertForbidden(login, "inactive")
    }).pipe(provideRoster())
  )

  it.effect("disabling one member leaves other members' sessions alone", () =>
    Effect.gen(function* () {
      const alice = yield* signedInMember("alice", ["team.read"])
      const bob = yield* signedInMember("bob", ["team.read"])
      yield* setAccountStatus(master, { memberId: alice.member.id, active: false })
      const principal = yield* authenticate(Option.some(bob.token))
      assert.strictEqual(principal._tag, "Member")
      if (principal._tag === "Member") assert.strictEqual(principal.member.id, bob.member.id)
    }).pipe(provideRoster())
  )

  it.effect("re-enabling does not revive the old token, but a new login works", () =>
    Effect.gen(function* () {
      const { member, token } = yield* signedInMember("alice", ["team.read"])
      yield* TestClock.adjust(Duration.seconds(1))
      yield* setAccountStatus(master, { memberId: member.id, active: false })
      yield* TestClock.adjust(Duration.seconds(1))

      const enabled = yield* setAccountStatus(master, { memberId: member.id, active: true })
      assert.isTrue(enabled.accountActiveStatus)
      assert.isTrue((yield* getMember(master, member.id)).accountActiveStatus)

      const stale = yield* Effect.flip(authenticate(Option.some(token)))
      assert.instanceOf(stale, Unauthenticated)

      yield* TestClock.adjust(Duration.seconds(1))
      const fresh = yield* logInAs("alice")
      const principal = yield* authenticate(Option.some(fresh.token))
      assert.strictEqual(principal._tag, "Member")
      if (principal._tag === "Member") {
        assert.strictEqual(principal.member.id, member.id)
        assert.isTrue(principal.member.accountActiveStatus)
      }
      // The old token stays dead after the new login too.
      assert.instanceOf(yield* Effect.flip(authenticate(Option.some(token))), Unauthenticated)
    }).pipe(provideRoster())
  )

  it.effect("a session that escaped revocation is still void once the account was disabled", () =>
    Effect.gen(function* () {
      const { member } = yield* signedInMember("alice", ["team.read"])
      // Issued with the epoch read before the account was disabled, but (as with a login
      // racing the disable) stored after the store's sessions were revoked.
      const issuedBefore = yield* (yield* TokenIssuer).issue("session")
      const issuedAt = yield* DateTime.now
      yield* TestClock.adjust(Duration.seconds(1))
      yield* setAccountStatus(master, { memberId: member.id, active: false })
      yield* (yield* SessionStore).create(
        new Session({
          tokenHash: issuedBefore.hash,
          memberId: member.id,
          organizationId: defaultOrganizationId,
          memberEpoch: 0,
          createdAt: issuedAt,
          lastSeenAt: issuedAt,
          expiresAt: DateTime.addDuration(issuedAt, Duration.hours(1)),
          id: SessionId.make("ses_before"),
          userAgent: null,
          address: null,
          mfaPending: false,
          amr: ["pwd"],
          authTime: issuedAt
        })
      )
      yield* TestClock.adjust(Duration.seconds(1))
      yield* setAccountStatus(master, { memberId: member.id, active: true })
      const error = yield* Effect.flip(authenticate(Option.some(issuedBefore.token)))
      assert.instanceOf(error, Unauthenticated)
    }).pipe(provideRoster())
  )

  it.effect("a member with admin.accounts.write can disable someone else", () =>
    Effect.gen(function* () {
      const admin = yield* actorWith("admin", ["admin.accounts.write", "team.read"])
      const target = yield* signedInMember("bob", ["team.read"])
      const updated = yield* setAccountStatus(admin.principal, { memberId: target.member.id, active: false })
      assert.isFalse(updated.accountActiveStatus)
      assert.instanceOf(yield* Effect.flip(authenticate(Option.some(target.token))), Unauthenticated)
    }).pipe(provideRoster())
  )

  it.effect("a member cannot change the account of someone holding permissions they lack", () =>
    Effect.gen(function* () {
      const admin = yield* actorWith("admin", ["admin.accounts.write"])
      const target = yield* signedInMember("bob", ["team.read"])
      const error = yield* Effect.flip(
        setAccountStatus(admin.principal, { memberId: target.member.id, active: false })
      )
      assertForbidden(error, "role_exceeds_own")
      yield* assertStillActive(target)
    }).pipe(provideRoster())
  )

  it.effect("a member cannot deactivate their own account", () =>
    Effect.gen(function* () {
      const admin = yield* actorWith("admin", ["admin.accounts.write", "team.read"])
      const error = yield* Effect.flip(
        setAccountStatus(admin.principal, { memberId: admin.member.id, active: false })
      )
      assertForbidden(error, "self_action")
      yield* assertStillActive(admin)
    }).pipe(provideRoster())
  )

  it.effect("an unknown member is NotFound", () =>
    Effect.gen(function* () {
      for (const active of [false, true]) {
        const error = yield* Effect.flip(
          setAccountStatus(master, { memberId: MemberIdSchema.make("no-such-member"), active })
        )
        assertNotFound(error, "member", "no-such-member")
      }
    }).pipe(provideRoster())
  )

  it.effect("requires admin.accounts.write", () =>
    Effect.gen(function* () {
      const actor = yield* actorWith("actor", ["team.read", "team.members.write", "team.permissions.write"])
      const target = yield* signedInMember("bob", ["team.read"])
      const error = yield* Effect.flip(
        setAccountStatus(actor.principal, { memberId: target.member.id, active: false })
      )
      assertMissingPermission(error, "admin.accounts.write")
      yield* assertStillActive(target)
    }).pipe(provideRoster())
  )
})

describe("inactive members cannot act", () => {
  it.effect("a planted session of an active member authenticates (control)", () =>
    Effect.gen(function* () {
      const role = yield* roleWith("staff", ["team.read"])
      const member = yield* addMember(master, memberInput("alice", role.id))
      const principal = yield* authenticatePlanted(member.id)
      assert.strictEqual(principal._tag, "Member")
    }).pipe(provideRoster())
  )

  it.effect("a member whose membership is inactive can neither sign in nor authenticate", () =>
    Effect.gen(function* () {
      const role = yield* roleWith("staff", ["team.read"])
      const member = yield* addMember(master, memberInput("alice", role.id, { activestatus: false }))
      yield* assertRefusedAsInactive(member)
    }).pipe(provideRoster())
  )

  it.effect("a member of a role created inactive can neither sign in nor authenticate", () =>
    Effect.gen(function* () {
      const role = yield* addRole(master, { name: "Dormant", roleKey: "dormant", activeStatus: false })
      const member = yield* addMember(master, memberInput("alice", role.id))
      assert.isTrue(member.activestatus)
      assert.isTrue(member.accountActiveStatus)
      yield* assertRefusedAsInactive(member)
    }).pipe(provideRoster())
  )

  it.effect("a disabled account with a session issued after the cut-off is still refused", () =>
    Effect.gen(function* () {
      const { member } = yield* signedInMember("alice", ["team.read"])
      yield* setAccountStatus(master, { memberId: member.id, active: false })
      yield* TestClock.adjust(Duration.seconds(1))
      assertForbidden(yield* Effect.flip(authenticatePlanted(member.id)), "inactive")
    }).pipe(provideRoster())
  )
})
