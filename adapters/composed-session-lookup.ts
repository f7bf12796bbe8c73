import { Effect, Layer, Option } from "effect"
import {
  CurrentOrganization,
  MemberStore,
  RolePermissionStore,
  RoleStore,
  SessionLookup,
  SessionStore
} from "../core/index.ts"

/**
 * `SessionLookup` from the store ports, one read each (session, member, role, permissions): for a
 * store that cannot read them together (process memory, where a read costs nothing, and MongoDB).
 */
export const composedSessionLookupLayer = Layer.effect(
  SessionLookup,
  Effect.gen(function* () {
    const sessions = yield* SessionStore
    const members = yield* MemberStore
    const roles = yield* RoleStore
    const permissions = yield* RolePermissionStore
    return SessionLookup.of({
      find: (tokenHash) =>
        Effect.gen(function* () {
          const session = yield* sessions.find(tokenHash)
          if (Option.isNone(session)) return Option.none()
          const inSessionOrganization = Effect.provideService(
            CurrentOrganization,
            session.value.organizationId
          )
          const member = yield* inSessionOrganization(members.findById(session.value.memberId))
          if (Option.isNone(member)) return Option.none()
          const role = yield* inSessionOrganization(roles.findById(member.value.roleId))
          const detail = yield* inSessionOrganization(permissions.findByRole(member.value.roleId))
          return Option.some({
            session: session.value,
            member: member.value,
            role: Option.getOrUndefined(role),
            permissionIds: Option.match(detail, { onNone: () => [], onSome: (found) => found.permissionIds })
          })
        })
    })
  })
)
