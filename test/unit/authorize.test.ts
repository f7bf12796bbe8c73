import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import {
  addMember,
  authenticate,
  authorize,
  CurrentOrganization,
  createApiKey,
  createOrganization,
  ensureOwner,
  listMembers,
  MemberStore,
  PermissionId,
  type Principal,
  RoleLookup,
  updateMember,
  updateRole
} from "../../core/index.ts"
import { actorWith, master, memberInput, provideRoster, refusal, roleWith } from "../support/roster.ts"

const ask = (actor: Principal, ...checks: Parameters<typeof authorize>[1]["checks"]) =>
  authorize(actor, { checks })

/** Counts the store reads `effect` makes of memberships and roles. */
const counted = <A, E, R>(effect: Effect.Effect<A, E, R>) => {
  const reads = { members: 0, roles: 0 }
  const run = effect.pipe(
    Effect.updateService(MemberStore, (store) => ({
      ...store,
      findById: (id) =>
        Effect.suspend(() => {
          reads.members++
          return store.findById(id)
        })
    })),
    Effect.updateService(RoleLookup, (lookup) => ({
      ...lookup,
      find: (id) =>
        Effect.suspend(() => {
          reads.roles++
          return lookup.find(id)
        })
    }))
  )
  return Effect.map(run, (answer) => ({ answer, reads }))
}

describe("authorize", () => {
  it.effect("answers the caller's own checks in the order asked, by key or id, with no read", () =>
    Effect.gen(function* () {
      const { principal, member } = yield* actorWith("ada", ["team.read"])
      const { answer, reads } = yield* counted(
        ask(
          principal,
          { permission: "team.read" },
          { permission: "billing.read" },
          { permission: PermissionId.make(1) }
        )
      )
      assert.deepStrictEqual(answer, [
        { permission: "team.read", member: member.id, allowed: true, reason: "granted" },
        { permission: "billing.read", member: member.id, allowed: false, reason: "not_granted" },
        { permission: "team.read", member: member.id, allowed: true, reason: "granted" } as const
      ])
      assert.deepStrictEqual(reads, { members: 0, roles: 0 })
    }).pipe(provideRoster())
  )

  it.effect(
    "answers a check asked again alike, and never takes one about oneself for one about the member ''",
    () =>
      Effect.gen(function* () {
        const { principal, member } = yield* actorWith("ada", ["team.read"])
        const answer = yield* ask(
          principal,
          { permission: "team.read" },
          { permission: "team.read", member: "" },
          { permission: "team.read" },
          { permission: PermissionId.make(1), member: "" },
          { permission: "billing.read" }
        )
        const self = { permission: "team.read", member: member.id, allowed: true, reason: "granted" } as const
        const nobody = { permission: "team.read", member: "", allowed: false, reason: "not_member" } as const
        assert.deepStrictEqual(answer, [
          self,
          nobody,
          self,
          nobody,
          { permission: "billing.read", member: member.id, allowed: false, reason: "not_granted" }
        ])
      }).pipe(provideRoster())
  )

  it.effect("answers an API key about itself with no member", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("ada", ["team.read", "organization.api_keys.write"])
      const { key } = yield* createApiKey(principal, { name: "deploys", permissions: ["team.read"] })
      const keyPrincipal = yield* authenticate(Option.some(key))
      assert.deepStrictEqual(
        yield* ask(keyPrincipal, { permission: "team.read" }, { permission: "audit.read" }),
        [
          { permission: "team.read", member: null, allowed: true, reason: "granted" },
          { permission: "audit.read", member: null, allowed: false, reason: "not_granted" }
        ]
      )
    }).pipe(provideRoster())
  )

  it.effect("answers about other members: granted, not granted, inactive membership or role", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("ada", ["team.read"])
      const auditors = yield* roleWith("auditors", ["audit.read"])
      const bob = yield* addMember(master, memberInput("bob", auditors.id))
      const carol = yield* addMember(master, memberInput("carol", auditors.id, { activestatus: false }))
      const { answer, reads } = yield* counted(
        ask(
          principal,
          { permission: "audit.read", member: bob.id },
          { permission: "team.read", member: bob.id },
          { permission: "audit.read", member: carol.id }
        )
      )
      assert.deepStrictEqual(answer, [
        { permission: "audit.read", member: bob.id, allowed: true, reason: "granted" },
        { permission: "team.read", member: bob.id, allowed: false, reason: "not_granted" },
        { permission: "audit.read", member: carol.id, allowed: false, reason: "inactive" }
      ])
      assert.deepStrictEqual(reads, { members: 2, roles: 1 }, "each member and role read once")
      yield* updateRole(master, auditors.id, { activeStatus: false })
      assert.deepStrictEqual(yield* ask(principal, { permission: "audit.read", member: bob.id }), [
        { permission: "audit.read", member: bob.id, allowed: false, reason: "inactive" }
      ])
    }).pipe(provideRoster())
  )

  it.effect(
    "reads no role for a member of the caller's own role, and answers a deactivated one inactive",
    () =>
      Effect.gen(function* () {
        const { principal, role, member } = yield* actorWith("ada", ["team.read", "team.members.write"])
        const bob = yield* addMember(master, memberInput("bob", role.id))
        const { answer, reads } = yield* counted(
          ask(
            principal,
            { permission: "team.read", member: bob.id },
            { permission: "team.read", member: member.id }
          )
        )
        assert.deepStrictEqual(
          answer.map((result) => result.reason),
          ["granted", "granted"]
        )
        assert.deepStrictEqual(reads, { members: 1, roles: 0 })
        yield* updateMember(master, bob.id, { activestatus: false })
        assert.strictEqual(
          (yield* ask(principal, { permission: "team.read", member: bob.id }))[0]?.reason,
          "inactive"
        )
      }).pipe(provideRoster())
  )

  it.effect("answers another organisation's member exactly as an id nobody has", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("ada", ["team.read"])
      const acme = yield* createOrganization(master, { name: "Acme", slug: "acme" })
      yield* ensureOwner({
        username: "zoe",
        email: "zoe@example.com",
        password: Redacted.make("a long passphrase")
      }).pipe(Effect.provideService(CurrentOrganization, acme.id))
      const zoe = Option.getOrThrow(yield* (yield* MemberStore).findByLogin("zoe"))
      const [elsewhere, nobody] = yield* ask(
        principal,
        { permission: "team.read", member: zoe.id },
        { permission: "team.read", member: "no such id, any string" }
      )
      assert.deepStrictEqual(elsewhere, {
        permission: "team.read",
        member: zoe.id,
        allowed: false,
        reason: "not_member"
      })
      assert.deepStrictEqual(nobody, {
        permission: "team.read",
        member: "no such id, any string",
        allowed: false,
        reason: "not_member"
      })
    }).pipe(provideRoster())
  )

  it.effect("needs team.read to ask about another member, nothing to ask about oneself", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("ada", ["billing.read"])
      const { member: bob } = yield* actorWith("bob", ["team.read"])
      const refused = yield* refusal(ask(principal, { permission: "team.read", member: bob.id }))
      assert.deepInclude(refused, {
        _tag: "Forbidden",
        reason: "missing_permission",
        permission: "team.read"
      })
      assert.strictEqual((yield* ask(principal, { permission: "billing.read" }))[0]?.allowed, true)
    }).pipe(provideRoster())
  )

  it.effect("fails the whole question on an unknown permission, by key or by id", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("ada", ["team.read"])
      assert.deepInclude(
        yield* refusal(ask(principal, { permission: "team.read" }, { permission: "team.raed" })),
        { _tag: "UnknownPermission", permission: "team.raed" }
      )
      assert.deepInclude(yield* refusal(ask(principal, { permission: PermissionId.make(999) })), {
        _tag: "UnknownPermission",
        permission: 999
      })
    }).pipe(provideRoster())
  )

  it.effect("asks the master key to name a member, and answers it about one", () =>
    Effect.gen(function* () {
      const { member } = yield* actorWith("ada", ["team.read"])
      assert.deepInclude(yield* refusal(ask(master, { permission: "team.read" })), { _tag: "MemberRequired" })
      assert.deepStrictEqual(yield* ask(master, { permission: "team.read", member: member.id }), [
        { permission: "team.read", member: member.id, allowed: true, reason: "granted" } as const
      ])
    }).pipe(provideRoster())
  )

  it.effect("refuses a session owing its second factor, and a caller asking in another organisation", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("ada", ["team.read"])
      const owing = { ...principal, mfaPending: true } as Principal
      assert.deepInclude(yield* refusal(ask(owing, { permission: "team.read" })), { _tag: "MfaRequired" })
      const acme = yield* createOrganization(master, { name: "Acme", slug: "acme" })
      const elsewhere = yield* refusal(
        ask(principal, { permission: "team.read" }).pipe(Effect.provideService(CurrentOrganization, acme.id))
      )
      assert.deepInclude(elsewhere, { _tag: "Forbidden", reason: "other_organization" })
    }).pipe(provideRoster())
  )
})

describe("listing the holders of a permission", () => {
  it.effect("lists the members whose role holds it, inactive ones included, and refuses an unknown key", () =>
    Effect.gen(function* () {
      const { principal, member: ada } = yield* actorWith("ada", ["team.read"])
      const auditors = yield* roleWith("auditors", ["audit.read", "team.read"])
      const bob = yield* addMember(master, memberInput("bob", auditors.id, { activestatus: false }))
      yield* addMember(master, memberInput("carol", (yield* roleWith("payers", ["billing.read"])).id))
      const readers = yield* listMembers(principal, { permission: "team.read" })
      assert.deepStrictEqual(readers.items.map((member) => member.id).sort(), [ada.id, bob.id].sort())
      const activeReaders = yield* listMembers(principal, { permission: "team.read", active: true })
      assert.deepStrictEqual(
        activeReaders.items.map((member) => member.id),
        [ada.id]
      )
      assert.deepStrictEqual(
        (yield* listMembers(principal, { permission: "organization.sso.write" })).items,
        []
      )
      assert.deepInclude(yield* refusal(listMembers(principal, { permission: "team.raed" })), {
        _tag: "UnknownPermission",
        permission: "team.raed"
      })
    }).pipe(provideRoster())
  )
})
