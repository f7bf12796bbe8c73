import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import {
  AuditLog,
  addMember,
  authenticate,
  CurrentOrganization,
  createOrganization,
  ensureOwner,
  logIn,
  RoleStore
} from "../../core/index.ts"
import { logInAs, master, memberInput, password, provideRoster, roleWith } from "../support/roster.ts"

const owner = (username: string) =>
  ensureOwner({ username, email: `${username}@example.com`, password: Redacted.make(password) })

describe("making someone the owner", () => {
  it.effect("moves a member by their role alone, ending their sessions, and records just that", () =>
    Effect.gen(function* () {
      const staff = yield* roleWith("staff", ["team.read"])
      yield* addMember(master, memberInput("bob", staff.id))
      const before = yield* logInAs("bob")
      const moved = yield* owner("bob")
      const [entry] = yield* AuditLog.use((log) => log.page({ action: "member.updated" }, 10))
      assert.deepStrictEqual(entry?.changes, { roleId: [staff.id, moved.roleId] })
      assert.deepStrictEqual(entry?.actor, { kind: "master" })
      assert.isTrue(
        (yield* Effect.exit(authenticate(Option.some(before.token))))._tag === "Failure",
        "the session from before the move ended"
      )
    }).pipe(provideRoster())
  )

  it.effect("joins a member of elsewhere active, who then signs in there", () =>
    Effect.gen(function* () {
      const staff = yield* roleWith("staff", ["team.read"])
      yield* addMember(master, memberInput("bob", staff.id))
      const acme = yield* createOrganization(master, { name: "Acme", slug: "acme" })
      const joined = yield* owner("bob").pipe(Effect.provideService(CurrentOrganization, acme.id))
      assert.isTrue(joined.member.activestatus)
      const session = yield* logIn({
        username: "bob",
        password: Redacted.make(password),
        client: "192.0.2.1",
        organization: "acme"
      })
      assert.isTrue("token" in session && session.organization.id === acme.id)
    }).pipe(provideRoster())
  )

  it.effect("makes the Owner role anew when the one recorded is gone", () =>
    Effect.gen(function* () {
      const acme = yield* createOrganization(master, { name: "Acme", slug: "acme" })
      const inAcme = Effect.provideService(CurrentOrganization, acme.id)
      const recorded = acme.ownerRoleId
      if (recorded === undefined) return assert.fail("a new organisation records its Owner role")
      yield* inAcme(Effect.flatMap(RoleStore, (roles) => roles.remove(recorded, undefined)))
      const made = yield* inAcme(owner("ada"))
      assert.notStrictEqual(made.roleId, recorded)
      assert.isTrue(
        Option.isSome(yield* inAcme(Effect.flatMap(RoleStore, (roles) => roles.findById(made.roleId))))
      )
    }).pipe(provideRoster())
  )
})
