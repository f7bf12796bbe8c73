import { Effect, Layer, Option } from "effect"
import {
  CurrentOrganization,
  MemberStore,
  RoleLookup,
  type Session,
  SessionLookup,
  SessionStore
} from "../../core/index.ts"

/**
 * `SessionLookup` from the store ports, one read each (session, member, role with its permissions):
 * for process memory, where a read costs nothing.
 */
export const composedSessionLookupLayer = Layer.effect(
  SessionLookup,
  Effect.gen(function* () {
    const sessions = yield* SessionStore
    const members = yield* MemberStore
    const roles = yield* RoleLookup
    /**
     * The session's member, role and permissions, read in the session's organisation; by `flatMap`,
     * not a generator, which cost every session's request about a microsecond more.
     */
    const withMember = (session: Session) =>
      Effect.provideService(
        Effect.flatMap(members.findById(session.memberId), (member) =>
          Option.isNone(member)
            ? Effect.succeedNone
            : Effect.map(roles.find(member.value.roleId), (found) => {
                const role = Option.getOrUndefined(found)
                return Option.some({
                  session,
                  member: member.value,
                  role: role?.role,
                  permissionIds: role?.permissionIds ?? []
                })
              })
        ),
        CurrentOrganization,
        session.organizationId
      )
    return SessionLookup.of({
      find: (tokenHash) =>
        Effect.flatMap(sessions.find(tokenHash), (session) =>
          Option.isNone(session) ? Effect.succeedNone : withMember(session.value)
        )
    })
  })
)
