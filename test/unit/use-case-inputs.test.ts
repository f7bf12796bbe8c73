import { assert, describe, it } from "@effect/vitest"
import { Exit, Redacted, Schema } from "effect"
import {
  ChangeOwnPasswordInput,
  GrantPermissionInput,
  ListAuditEventsInput,
  ListMembersInput,
  ListRolesInput,
  LogInInput,
  MemberChanges,
  RemovePermissionInput,
  RoleChanges,
  SetAccountStatusInput,
  SetMemberPasswordInput
} from "../../core/index.ts"

const decode = <S extends Schema.Codec<unknown, unknown>>(schema: S, input: unknown) =>
  Schema.decodeUnknownExit(schema)(input)

/** Every input a use case takes decodes what an adapter passes on, and refuses what breaks its rules. */
const plainInputs = [
  ["GrantPermissionInput", GrantPermissionInput, { roleId: 3, permissionId: 2 }, { roleId: 3 }],
  ["RemovePermissionInput", RemovePermissionInput, { id: 4, permissionId: 2 }, { id: 4, permissionId: 2.5 }],
  [
    "SetAccountStatusInput",
    SetAccountStatusInput,
    { memberId: "m-1", active: false },
    { memberId: "", active: false }
  ],
  [
    "MemberChanges",
    MemberChanges,
    { username: "ada2", email: "a@example.org", activestatus: false, roleId: 2 },
    { username: "a b" }
  ],
  ["RoleChanges", RoleChanges, { name: "Crew", roleKey: "crew", activeStatus: false }, { roleKey: "Crew" }],
  ["ListRolesInput", ListRolesInput, { limit: 2, after: { id: 3 } }, { limit: 0 }],
  ["ListMembersInput", ListMembersInput, { limit: 5, q: "ad", active: true, roleId: 2 }, { q: "" }],
  [
    "ListAuditEventsInput",
    ListAuditEventsInput,
    { action: "member.added", actorId: "m-1", limit: 9 },
    { action: "member.eaten" }
  ]
] as const

describe("use-case inputs", () => {
  it.each(plainInputs)(
    "%s keeps a valid input whole and refuses a broken one",
    (_, schema, valid, broken) => {
      const decoded = decode(schema, valid)
      assert.isTrue(Exit.isSuccess(decoded))
      if (Exit.isSuccess(decoded)) assert.deepStrictEqual<unknown>(decoded.value, valid)
      assert.isTrue(Exit.isFailure(decode(schema, broken)))
    }
  )

  it("password inputs keep passwords redacted, and refuse one out of bounds", () => {
    const set = decode(SetMemberPasswordInput, { newPassword: "long enough, surely" })
    assert.isTrue(Exit.isSuccess(set) && Redacted.value(set.value.newPassword) === "long enough, surely")
    assert.isTrue(Exit.isFailure(decode(SetMemberPasswordInput, { newPassword: "short" })))
    const change = decode(ChangeOwnPasswordInput, {
      currentPassword: "old one",
      newPassword: "long enough, surely"
    })
    assert.isTrue(Exit.isSuccess(change) && Redacted.value(change.value.currentPassword) === "old one")
    assert.isTrue(
      Exit.isFailure(decode(ChangeOwnPasswordInput, { currentPassword: "", newPassword: "long enough" }))
    )
    const logIn = decode(LogInInput, { username: "ada", password: "secret", client: "192.0.2.1" })
    assert.isTrue(Exit.isSuccess(logIn) && logIn.value.client === "192.0.2.1")
    assert.isTrue(Exit.isFailure(decode(LogInInput, { username: "ada", password: "secret" })))
  })
})
