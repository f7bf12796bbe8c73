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
  usernameKey
} from "../../core/index.ts"
import { MemoryAuditTrail } from "./audit-log.ts"

export const makeMemberStore = Effect.gen(function* () {
  const trail = yield* MemoryAuditTrail
  const byId = new Map<string, MemberRecord>()
  const idByUsername = new Map<string, MemberId>()
  const idByEmail = new Map<string, MemberId>()
  const lookup = (id: MemberId | undefined) =>
    Option.fromNullishOr(id === undefined ? undefined : byId.get(id))

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
    Effect.sync(() =>
      Option.map(lookup(id), (current) => {
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
    findById: (id) => Effect.sync(() => lookup(id)),
    findByLogin: (login) =>
      Effect.sync(() => {
        const key = loginKey(login)
        return lookup(idByUsername.get(key) ?? idByEmail.get(key))
      }),
    page: (query, limit) =>
      Effect.sync(() =>
        [...byId.values()]
          .filter((member) => matches(member, query))
          .sort(byCreation)
          .slice(0, limit)
      ),
    countActive: Effect.sync(() => [...byId.values()].filter(isActiveMember).length),
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
      Effect.suspend(() => {
        const current = byId.get(id)
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
    remove: (id, entry) =>
      Effect.sync(() => {
        const removed = lookup(id)
        if (Option.isSome(removed)) {
          forget(removed.value)
          trail.append(entry)
        }
        return removed
      })
  })
})

export const memberStoreLayer = Layer.effect(MemberStore, makeMemberStore)
