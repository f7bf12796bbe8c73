import { Effect, Layer, Option } from "effect"
import {
  CurrentOrganization,
  MemberStore,
  RolePermissionStore,
  RoleStore,
  type Session,
  SessionLookup,
  SessionStore
} from "../core/index.ts"

/**
 * `SessionLookup` from the store ports, one read each (session, member, role, permissions): for
 * process memory, where a read costs nothing.
 */
export const composedSessionLookupLayer = Layer.effect(
  SessionLookup,
  Effect.gen(function* () {
    const sessions = yield* SessionStore
    const members = yield* MemberStore
    const roles = yield* RoleStore
    const permissions = yield* RolePermissionStore
    /** The session's member, role and permissions, read in the session's organisation. */
    const withMember = (session: Session) =>
      Effect.gen(function* () {
        const member = yield* members.findById(session.memberId)
        if (Option.isNone(member)) return Option.none()
        const role = yield* roles.findById(member.value.roleId)
        const detail = yield* permissions.findByRole(member.value.roleId)
        return Option.some({
          session,
          member: member.value,
          role: Option.getOrUndefined(role),
          permissionIds: Option.match(detail, { onNone: () => [], onSome: (found) => found.permissionIds })
        })
      }).pipe(Effect.provideService(CurrentOrganization, session.organizationId))
    return SessionLookup.of({
      find: (tokenHash) =>
        Effect.flatMap(sessions.find(tokenHash), (session) =>
          Option.isNone(session) ? Effect.succeedNone : withMember(session.value)
        )
    })
  })
)
