import { Effect, Layer, Option } from "effect"
import {
  CurrentOrganization,
  MemberStore,
  RolePermissionStore,
  RoleStore,
  type Session,
  SessionLookup,
  SessionStore,
  type SessionWithMember
} from "../core/index.ts"

/**
 * What authenticates `session` read from the store ports, one read each (member, role,
 * permissions), in the session's organisation; none when its member is no longer one of it.
 */
export const readWithMember = Effect.gen(function* () {
  const members = yield* MemberStore
  const roles = yield* RoleStore
  const permissions = yield* RolePermissionStore
  return (session: Session) =>
    Effect.gen(function* () {
      const member = yield* members.findById(session.memberId)
      if (Option.isNone(member)) return Option.none<SessionWithMember>()
      const role = yield* roles.findById(member.value.roleId)
      const detail = yield* permissions.findByRole(member.value.roleId)
      return Option.some<SessionWithMember>({
        session,
        member: member.value,
        role: Option.getOrUndefined(role),
        permissionIds: Option.match(detail, { onNone: () => [], onSome: (found) => found.permissionIds })
      })
    }).pipe(Effect.provideService(CurrentOrganization, session.organizationId))
})

/**
 * `SessionLookup` from the store ports, one read each (session, member, role, permissions): for
 * process memory, where a read costs nothing.
 */
export const composedSessionLookupLayer = Layer.effect(
  SessionLookup,
  Effect.gen(function* () {
    const sessions = yield* SessionStore
    const withMember = yield* readWithMember
    return SessionLookup.of({
      find: (tokenHash) =>
        Effect.flatMap(sessions.find(tokenHash), (session) =>
          Option.isNone(session) ? Effect.succeedNone : withMember(session.value)
        )
    })
  })
)
