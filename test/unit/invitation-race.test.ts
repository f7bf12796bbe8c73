import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import {
  AuditLog,
  acceptInvitation,
  CurrentOrganization,
  createOrganization,
  InvitationInvalid,
  InvitationStore,
  inviteMember,
  MemberStore,
  OrganizationStore,
  removeRole
} from "../../core/index.ts"
import { master, password, provideRoster, readersAdaAndBob, roleWith } from "../support/roster.ts"

/** The stores as a revocation racing the acceptance leaves them: the invitation is revoked just before it is claimed. */
const revokedBeforeClaim = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const store = yield* InvitationStore
    return yield* Effect.provideService(self, InvitationStore, {
      ...store,
      claim: (tokenHash, now, entry) =>
        store.findByTokenHash(tokenHash).pipe(
          Effect.flatMap((found) =>
            Option.isSome(found) ? store.revoke(found.value.id) : Effect.succeedNone
          ),
          Effect.andThen(store.claim(tokenHash, now, entry))
        )
    })
  })

describe("an invitation claimed by someone else between its check and its claim", () => {
  it.effect("is 410, and the membership made for it is taken back with its role's hold", () =>
    Effect.gen(function* () {
      const staff = yield* roleWith("staff", [])
      const created = yield* inviteMember(master, { email: "grace@example.com", roleId: staff.id })
      const token = Option.getOrThrow(created.token)
      const error = yield* Effect.flip(
        revokedBeforeClaim(
          acceptInvitation(Option.none(), {
            token,
            username: "grace",
            password: Redacted.make(password),
            client: "192.0.2.1"
          })
        )
      )
      assert.instanceOf(error, InvitationInvalid)
      assert.isTrue(Option.isNone(yield* (yield* MemberStore).findByLogin("grace")), "no account is left")
      const actions = (yield* (yield* AuditLog).page({}, 10)).map((entry) => entry.action)
      assert.deepStrictEqual(actions.slice(0, 3), ["member.removed", "member.added", "invitation.created"])
      // Nobody holds the role: it can be removed.
      const removed = yield* removeRole(master, staff.id)
      assert.strictEqual(removed.id, staff.id)
    }).pipe(provideRoster())
  )
})

describe("an account removed between its proof and joining", () => {
  it.effect("joins nothing, and leaves the invitation unclaimed", () =>
    Effect.gen(function* () {
      const { ada } = yield* readersAdaAndBob
      const acme = yield* createOrganization(master, { name: "Acme", slug: "acme" })
      const inAcme = Effect.provideService(CurrentOrganization, acme.id)
      const staff = yield* inAcme(roleWith("staff", []))
      const created = yield* inAcme(inviteMember(master, { email: ada.email, roleId: staff.id }))
      const token = Option.getOrThrow(created.token)
      const accept = acceptInvitation(Option.none(), {
        token,
        password: Redacted.make(password),
        client: "192.0.2.1"
      })
      const error = yield* Effect.flip(
        accept.pipe(
          Effect.updateService(MemberStore, (store) => ({ ...store, join: () => Effect.succeed(false) }))
        )
      )
      assert.instanceOf(error, InvitationInvalid)
      assert.isTrue(
        Option.isNone(yield* inAcme((yield* MemberStore).findById(ada.id))),
        "no membership in Acme"
      )
      const session = yield* accept
      assert.strictEqual(session.organization.slug, "acme", "the invitation is still good")
    }).pipe(provideRoster())
  )
})

describe("an invitation whose organisation went between its check and joining", () => {
  it.effect("is worth nothing, and makes no account", () =>
    Effect.gen(function* () {
      const staff = yield* roleWith("staff", [])
      const created = yield* inviteMember(master, { email: "hal@example.com", roleId: staff.id })
      const error = yield* Effect.flip(
        acceptInvitation(Option.none(), {
          token: Option.getOrThrow(created.token),
          username: "hal",
          password: Redacted.make(password),
          client: "192.0.2.1"
        }).pipe(
          Effect.updateService(OrganizationStore, (store) => ({
            ...store,
            findById: () => Effect.succeedNone
          }))
        )
      )
      assert.instanceOf(error, InvitationInvalid)
      assert.isTrue(Option.isNone(yield* (yield* MemberStore).findByLogin("hal")))
    }).pipe(provideRoster())
  )
})
