import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import {
  MemberStore,
  PermissionId,
  RolePermissionStore,
  RoleStore,
  SessionLookup,
  SessionStore,
  type SessionWithMember,
  type TokenHash
} from "../../core/index.ts"
import { at, memberRecord, newRole, sessionOf, valueOf } from "../support/contract.ts"
import { storeKinds } from "../support/stores.ts"

/**
 * What authenticating `tokenHash` sees, read twice: the second read (from a copy, where the store
 * keeps one) must answer as the first.
 */
const seen = (tokenHash: TokenHash) =>
  Effect.gen(function* () {
    const lookup = yield* SessionLookup
    const [first, second] = [yield* lookup.find(tokenHash), yield* lookup.find(tokenHash)]
    const view = Option.map((found: SessionWithMember) => ({
      username: found.member.username,
      active: found.member.activestatus,
      accountActive: found.member.accountActiveStatus,
      epoch: found.member.sessionEpoch,
      roleActive: found.role?.activeStatus,
      permissionIds: found.permissionIds.map(Number)
    }))
    assert.deepStrictEqual(view(second), view(first), "a second read answers as the first")
    return Option.getOrUndefined(view(first))
  })

describe.each(storeKinds)("SessionLookup on %s", (_, stores) => {
  it.effect("answers what is stored after every change that authenticating depends on", () =>
    Effect.gen(function* () {
      const roles = yield* RoleStore
      const permissions = yield* RolePermissionStore
      const members = yield* MemberStore
      const role = yield* roles.insert(newRole("staff"))
      const other = yield* roles.insert(newRole("other"))
      const detail = valueOf(yield* permissions.grant(role.id, PermissionId.make(1), at(1)))
      yield* permissions.grant(role.id, PermissionId.make(2), at(1))
      const ada = memberRecord("ada", { roleId: role.id })
      yield* members.insert(ada)
      const { tokenHash } = sessionOf("ada-token", ada.id)
      yield* (yield* SessionStore).create(sessionOf("ada-token", ada.id))
      const now = {
        username: "ada",
        active: true,
        accountActive: true,
        epoch: 0,
        roleActive: true,
        permissionIds: [1, 2]
      }
      const check = function* (changes: Partial<typeof now>, message: string) {
        Object.assign(now, changes)
        assert.deepStrictEqual(yield* seen(tokenHash), now, message)
      }
      yield* check({}, "as written")
      yield* permissions.revoke(detail, PermissionId.make(1), at(2))
      yield* check({ permissionIds: [2] }, "a revoked permission")
      yield* permissions.grant(role.id, PermissionId.make(3), at(3))
      yield* check({ permissionIds: [2, 3] }, "a granted permission")
      yield* permissions.grant(other.id, PermissionId.make(4), at(3))
      yield* roles.update(other.id, { activeStatus: false })
      yield* check({}, "another role's changes")
      yield* roles.update(role.id, { activeStatus: false })
      yield* check({ roleActive: false }, "a deactivated role")
      yield* roles.update(role.id, { activeStatus: true, name: "Staff" })
      yield* check({ roleActive: true }, "a reactivated role")
      yield* members.update(ada.id, role.id, { roleId: other.id }, false)
      yield* check({ roleActive: false, permissionIds: [4] }, "a member moved to another role")
      yield* members.update(ada.id, other.id, { activestatus: false, roleId: role.id }, false)
      yield* check({ active: false, roleActive: true, permissionIds: [2, 3] }, "a deactivated member")
      yield* members.updateAccount(ada.id, { username: "ada2" })
      yield* check({ username: "ada2" }, "a renamed account")
      yield* members.setPassword(ada.id, "$scrypt$ln=10,r=8,p=1$c2FsdA$b3RoZXI")
      yield* check({ epoch: 1 }, "a new password's epoch")
      yield* members.setAccountStatus(ada.id, false)
      yield* check({ accountActive: false, epoch: 2 }, "a disabled account")
      yield* members.remove(ada.id)
      assert.isTrue(Option.isNone(yield* (yield* SessionLookup).find(tokenHash)), "a removed member")
    }).pipe(Effect.provide(stores()))
  )
})
