import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import {
  addMember,
  Forbidden,
  getProvisionedGroup,
  listProvisionedGroups,
  MemberId,
  MemberStore,
  NoDefaultRole,
  NotFound,
  provisionGroup,
  RoleId,
  RoleStore,
  removeProvisionedGroup,
  replaceProvisionedGroup
} from "../../core/index.ts"
import {
  actorWith,
  failureOf,
  master,
  memberInput,
  provideRoster,
  readersAdaAndBob,
  roleWith
} from "../support/roster.ts"

const roleOf = (id: MemberId) =>
  Effect.gen(function* () {
    return Option.getOrThrow(yield* (yield* MemberStore).findById(id)).roleId
  })

describe("groups provisioned by an identity provider", () => {
  it.effect(
    "a group is a new role named for it, keyed apart from a role of that key, holding who it names",
    () =>
      Effect.gen(function* () {
        const { ada, bob } = yield* readersAdaAndBob
        yield* roleWith("sales", [])
        const id = yield* provisionGroup(master, {
          displayName: "Sales",
          externalId: "ext-1",
          memberIds: [ada.id, MemberId.make("nobody")]
        })
        const role = Option.getOrThrow(yield* (yield* RoleStore).findById(id))
        assert.deepStrictEqual([role.name, role.roleKey], ["Sales", "sales-2"])
        assert.strictEqual(yield* roleOf(ada.id), id)
        const group = yield* getProvisionedGroup(master, id)
        assert.deepStrictEqual(group.memberIds, [ada.id], "an id of nobody here is left out")
        assert.strictEqual(group.profile?.externalId, "ext-1")
        const listed = yield* listProvisionedGroups(master)
        const byName = Object.fromEntries(listed.map((g) => [g.role.name, g.memberIds.length]))
        assert.deepStrictEqual(byName, { reader: 1, sales: 0, Sales: 1 })
        assert.strictEqual(yield* roleOf(bob.id), listed.find((g) => g.role.name === "reader")?.role.id)
      }).pipe(provideRoster())
  )

  it.effect("replacing renames the role, keeps its key, and moves who left to the default role", () =>
    Effect.gen(function* () {
      const { reader, ada, bob } = yield* readersAdaAndBob
      const id = yield* provisionGroup(master, { displayName: "Ops", memberIds: [ada.id] })
      yield* replaceProvisionedGroup(master, id, { displayName: "Operations", memberIds: [bob.id] })
      const role = Option.getOrThrow(yield* (yield* RoleStore).findById(id))
      assert.deepStrictEqual([role.name, role.roleKey], ["Operations", "ops"])
      assert.deepStrictEqual([yield* roleOf(ada.id), yield* roleOf(bob.id)], [reader.id, id])
      assert.deepStrictEqual((yield* getProvisionedGroup(master, id)).memberIds, [bob.id])
    }).pipe(provideRoster())
  )

  it.effect("removing moves the holders to the default role first, then the role goes", () =>
    Effect.gen(function* () {
      const { reader, ada } = yield* readersAdaAndBob
      const id = yield* provisionGroup(master, { displayName: "Ops", memberIds: [ada.id] })
      yield* removeProvisionedGroup(master, id)
      assert.isTrue(Option.isNone(yield* (yield* RoleStore).findById(id)))
      assert.strictEqual(yield* roleOf(ada.id), reader.id)
      assert.instanceOf(failureOf(yield* Effect.exit(getProvisionedGroup(master, id))), NotFound)
      assert.instanceOf(failureOf(yield* Effect.exit(removeProvisionedGroup(master, id))), NotFound)
      assert.instanceOf(
        failureOf(
          yield* Effect.exit(replaceProvisionedGroup(master, id, { displayName: "X", memberIds: [] }))
        ),
        NotFound
      )
    }).pipe(provideRoster())
  )

  it.effect(
    "the default role's holders have nowhere to go: emptying or removing it is refused, changing nothing",
    () =>
      Effect.gen(function* () {
        const { reader, ada } = yield* readersAdaAndBob
        assert.instanceOf(
          failureOf(
            yield* Effect.exit(
              replaceProvisionedGroup(master, reader.id, { displayName: "Role reader", memberIds: [] })
            )
          ),
          NoDefaultRole
        )
        assert.instanceOf(
          failureOf(yield* Effect.exit(removeProvisionedGroup(master, reader.id))),
          NoDefaultRole
        )
        assert.strictEqual(yield* roleOf(ada.id), reader.id)
        assert.isTrue(Option.isSome(yield* (yield* RoleStore).findById(reader.id)))
      }).pipe(provideRoster())
  )

  it.effect("a caller without the right, or below the group's ceiling, changes nothing", () =>
    Effect.gen(function* () {
      const { ada } = yield* readersAdaAndBob
      const admins = yield* roleWith("admins", [
        "team.read",
        "team.roles.write",
        "team.members.write",
        "audit.read"
      ])
      const id = yield* provisionGroup(master, { displayName: "Ops", memberIds: [] })
      const { principal: reader } = yield* actorWith("carol", ["team.read"])
      assert.instanceOf(
        failureOf(yield* Effect.exit(provisionGroup(reader, { displayName: "X", memberIds: [] }))),
        Forbidden
      )
      assert.instanceOf(failureOf(yield* Effect.exit(removeProvisionedGroup(reader, id))), Forbidden)
      const { principal: writer } = yield* actorWith("dave", [
        "team.read",
        "team.roles.write",
        "team.members.write"
      ])
      const dan = yield* addMember(master, memberInput("dan", admins.id))
      assert.instanceOf(
        failureOf(
          yield* Effect.exit(replaceProvisionedGroup(writer, id, { displayName: "Ops", memberIds: [dan.id] }))
        ),
        Forbidden,
        "moving a member out of a role above the caller's"
      )
      assert.strictEqual(yield* roleOf(dan.id), admins.id)
      const { principal: none } = yield* actorWith("erin", [])
      assert.instanceOf(failureOf(yield* Effect.exit(listProvisionedGroups(none))), Forbidden)
      assert.instanceOf(failureOf(yield* Effect.exit(getProvisionedGroup(none, RoleId.make(1)))), Forbidden)
      assert.notStrictEqual(yield* roleOf(ada.id), id)
    }).pipe(provideRoster())
  )
})
