import { Effect, Layer, Option } from "effect"
import {
  type AuditEntry,
  byCreation,
  DuplicateEmail,
  DuplicateUsername,
  isActiveMember,
  isOlderThan,
  loginKey,
  type MemberId,
  type MemberQuery,
  MemberRecord,
  MemberStore,
  type OrganizationId,
  usernameKey
} from "../../core/index.ts"
import { inOrganization, syncInOrganization } from "../organization-scope.ts"
import { MemoryAuditTrail } from "./audit-log.ts"

export const makeMemberStore = Effect.gen(function* () {
  const trail = yield* MemoryAuditTrail
  const byId = new Map<string, MemberRecord>()
  const idByUsername = new Map<string, MemberId>()
  const idByEmail = new Map<string, MemberId>()
  const anywhere = (id: MemberId | undefined) =>
    Option.fromNullishOr(id === undefined ? undefined : byId.get(id))
  const lookup = (organizationId: OrganizationId, id: MemberId) =>
    Option.filter(anywhere(id), (member) => member.organizationId === organizationId)
  const membersOf = (organizationId: OrganizationId) =>
    [...byId.values()].filter((member) => member.organizationId === organizationId)

  const matches = (member: MemberRecord, query: MemberQuery) =>
    (query.after === undefined || isOlderThan(query.after, member)) &&
    (query.roleId === undefined || member.roleId === query.roleId) &&
    (query.active === undefined || isActiveMember(member) === query.active) &&
    (query.q === undefined ||
      usernameKey(member.username).startsWith(query.q.toLowerCase()) ||
      member.email.startsWith(query.q.toLowerCase()))

  /** The conflict `record` would make with another member, if any. */
  const conflictOf = (record: MemberRecord) => {
    const emailHolder = idByEmail.get(record.email)
    if (emailHolder !== undefined && emailHolder !== record.id)
      return new DuplicateEmail({ email: record.email })
    const usernameHolder = idByUsername.get(usernameKey(record.username))
    if (usernameHolder !== undefined && usernameHolder !== record.id) {
      return new DuplicateUsername({ username: record.username })
    }
    return undefined
  }

  const forget = (record: MemberRecord) => {
    byId.delete(record.id)
    idByEmail.delete(record.email)
    idByUsername.delete(usernameKey(record.username))
  }

  const save = (record: MemberRecord) => {
    const previous = byId.get(record.id)
    if (previous !== undefined) forget(previous)
    byId.set(record.id, record)
    idByEmail.set(record.email, record.id)
    idByUsername.set(usernameKey(record.username), record.id)
    return record
  }

  /** Replaces the member by what `change` makes of them; none when there is no such member. */
  const modify = (id: MemberId, change: (current: MemberRecord) => MemberRecord, entry?: AuditEntry) =>
    syncInOrganization((organizationId) =>
      Option.map(lookup(organizationId, id), (current) => {
        trail.append(entry)
        return save(change(current))
      })
    )

  return MemberStore.of({
    insert: (record, entry) =>
      Effect.suspend(() => {
        const conflict = conflictOf(record)
        if (conflict !== undefined) return Effect.fail(conflict)
        save(record)
        trail.append(entry)
        return Effect.void
      }),
    findById: (id) => syncInOrganization((organizationId) => lookup(organizationId, id)),
    findByLogin: (login) =>
      Effect.sync(() => {
        const key = loginKey(login)
        return anywhere(idByUsername.get(key) ?? idByEmail.get(key))
      }),
    page: (query, limit) =>
      syncInOrganization((organizationId) =>
        membersOf(organizationId)
          .filter((member) => matches(member, query))
          .sort(byCreation)
          .slice(0, limit)
      ),
    countActive: syncInOrganization(
      (organizationId) => membersOf(organizationId).filter(isActiveMember).length
    ),
    setAccountStatus: (id, active, entry) =>
      modify(
        id,
        (current) =>
          new MemberRecord({
            ...current,
            accountActiveStatus: active,
            sessionEpoch: active ? current.sessionEpoch : current.sessionEpoch + 1
          }),
        entry
      ),
    update: (id, roleId, changes, endSessions, entry) =>
      inOrganization((organizationId) => {
        const current = Option.getOrUndefined(lookup(organizationId, id))
        if (current === undefined || current.roleId !== roleId) return Effect.succeedNone
        const next = new MemberRecord({
          ...current,
          ...changes,
          sessionEpoch: current.sessionEpoch + (endSessions ? 1 : 0)
        })
        const conflict = conflictOf(next)
        if (conflict !== undefined) return Effect.fail(conflict)
        trail.append(entry)
        return Effect.succeedSome(save(next))
      }),
    setPassword: (id, passwordHash, entry) =>
      modify(
        id,
        (current) => new MemberRecord({ ...current, passwordHash, sessionEpoch: current.sessionEpoch + 1 }),
        entry
      ),
    removeAll: syncInOrganization((organizationId) => {
      for (const member of membersOf(organizationId)) forget(member)
    }),
    remove: (id, entry) =>
      syncInOrganization((organizationId) => {
        const removed = lookup(organizationId, id)
        if (Option.isSome(removed)) {
          forget(removed.value)
          trail.append(entry)
        }
        return removed
      })
  })
})

export const memberStoreLayer = Layer.effect(MemberStore, makeMemberStore)
