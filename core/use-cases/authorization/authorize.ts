import { Effect, Option } from "effect"
import type { AuthorizationResult, AuthorizeInput } from "../../model/authorization.ts"
import { Forbidden, MemberRequired, MfaRequired } from "../../model/errors.ts"
import type { MemberId, RoleId } from "../../model/ids.ts"
import type { PermissionSet } from "../../model/permission-set.ts"
import { owesSecondFactor, type Principal } from "../../model/principal.ts"
import { CurrentOrganization } from "../../model/request.ts"
import {
  boundOrganizationOf,
  canAct,
  permissionSetOf,
  permissionsOf,
  requirePermission
} from "../../policy/access.ts"
import type { CatalogPermission } from "../../policy/permission-catalog.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { RoleLookup, type RoleWithPermissions } from "../../ports/role-lookup.ts"
import { permissionsNamed } from "../../steps/authorization/permissions-named.ts"

/** Whom a check is about, as read: absent when no member of the organisation has the id. */
interface Subject {
  readonly member: string | null
  readonly active: boolean
  readonly held: PermissionSet
}

/** The caller itself: a member's session or an API key, which authenticating found able to act. */
const callerSubject = (actor: Principal): Effect.Effect<Subject, MemberRequired | Forbidden> => {
  switch (actor._tag) {
    case "Member":
      return Effect.succeed({ member: actor.member.id, active: true, held: permissionsOf(actor) })
    case "ApiKey":
    case "Scim":
      return Effect.succeed({ member: null, active: true, held: permissionsOf(actor) })
    default:
      // The master key and the open mode are no member: a question about them has no answer.
      return Effect.fail(new MemberRequired())
  }
}

/** A caller bound to an organisation asks only about its own, whatever the use case was given. */
const inOwnOrganization = (actor: Principal) => {
  const bound = boundOrganizationOf(actor)
  return bound === undefined
    ? Effect.void
    : CurrentOrganization.use((organizationId) =>
        organizationId === bound ? Effect.void : Effect.fail(new Forbidden({ reason: "other_organization" }))
      )
}

/**
 * The members `ids` name, each read once by its membership of the current organisation (an indexed
 * read; another organisation's member is not found, as an id nobody has), then their roles once
 * each. The caller's own membership and role are those authenticating read, never read again.
 */
const namedSubjects = Effect.fnUntraced(function* (actor: Principal, ids: ReadonlyArray<string>) {
  const own = actor._tag === "Member" ? actor : undefined
  const store = yield* MemberStore
  const asked = [...new Set(ids)].filter((id) => id !== own?.member.id)
  // Any string is asked as it is: an id no member has is simply not found.
  const found = yield* Effect.forEach(asked, (id) => store.findById(id as MemberId), { concurrency: 8 })
  const members = found.flatMap((member) => (Option.isSome(member) ? [member.value] : []))
  const roleIds = [...new Set(members.map((member) => member.roleId))].filter(
    (roleId) => roleId !== own?.member.roleId
  )
  const lookup = yield* RoleLookup
  const roles = new Map<RoleId, RoleWithPermissions | undefined>(
    yield* Effect.forEach(
      roleIds,
      (roleId) => Effect.map(lookup.find(roleId), (role) => [roleId, Option.getOrUndefined(role)] as const),
      { concurrency: 8 }
    )
  )
  // The caller's role is active and holds what the caller holds: authenticating read it so.
  const standingOf = (roleId: RoleId) => {
    if (roleId === own?.member.roleId) return { role: { activeStatus: true }, held: permissionsOf(own) }
    const role = roles.get(roleId)
    return { role: role?.role, held: permissionSetOf(role?.permissionIds ?? []) }
  }
  const subjects = new Map<string, Subject>()
  if (own !== undefined) subjects.set(own.member.id, yield* callerSubject(own))
  for (const member of members) {
    const { role, held } = standingOf(member.roleId)
    subjects.set(member.id, { member: member.id, active: canAct(member, role), held })
  }
  return subjects
})

const answer = (
  permission: CatalogPermission,
  subject: Subject | undefined,
  asked: string
): AuthorizationResult => {
  if (subject === undefined)
    return { permission: permission.key, member: asked, allowed: false, reason: "not_member" }
  const reason = !subject.active ? "inactive" : subject.held.has(permission.id) ? "granted" : "not_granted"
  return { permission: permission.key, member: subject.member, allowed: reason === "granted", reason }
}

/**
 * `POST /authorize`, and the same question in process for a service embedding the core: may each
 * check's member (absent: the caller itself) do its permission, here? Answered in the order asked.
 * A question about another member needs `team.read`; one about oneself needs nothing but to be
 * someone (the master key names a member). Changes nothing, and reads nothing about the caller
 * beyond what authenticating read.
 */
export const authorize = Effect.fnUntraced(function* (actor: Principal, input: AuthorizeInput) {
  const permissions = yield* permissionsNamed(input.checks.map((check) => check.permission))
  if (owesSecondFactor(actor)) return yield* new MfaRequired()
  yield* inOwnOrganization(actor)
  const named = input.checks.flatMap((check) => (check.member === undefined ? [] : [check.member]))
  const self = named.length < input.checks.length ? yield* callerSubject(actor) : undefined
  if (named.length > 0) yield* requirePermission(actor, "team.read")
  const subjects = named.length > 0 ? yield* namedSubjects(actor, named) : new Map<string, Subject>()
  // A check asked again is answered with the same answer: a hundred checks are mostly a few asked often.
  const answered = new Map<CatalogPermission, Map<string | undefined, AuthorizationResult>>()
  return input.checks.map((check, index): AuthorizationResult => {
    const permission = permissions[index] as CatalogPermission
    const about = answered.get(permission) ?? new Map<string | undefined, AuthorizationResult>()
    answered.set(permission, about)
    const known = about.get(check.member)
    if (known !== undefined) return known
    const made =
      check.member === undefined
        ? answer(permission, self, "")
        : answer(permission, subjects.get(check.member), check.member)
    about.set(check.member, made)
    return made
  })
})
