import { Effect, Layer, Option } from "effect"
import {
  byCreation,
  DuplicateEmail,
  DuplicateUsername,
  isOlderThan,
  loginKey,
  type MemberId,
  type MemberQuery,
  MemberRecord,
  MemberStore,
  usernameKey
} from "../../core/index.ts"

export const makeMemberStore = Effect.sync(() => {
  const byId = new Map<string, MemberRecord>()
  const idByUsername = new Map<string, MemberId>()
  const idByEmail = new Map<string, MemberId>()
  const lookup = (id: MemberId | undefined) =>
    Option.fromNullishOr(id === undefined ? undefined : byId.get(id))

  const matches = (member: MemberRecord, query: MemberQuery) =>
    (query.after === undefined || isOlderThan(query.after, member)) &&
    (query.roleId === undefined || member.roleId === query.roleId) &&
    (query.active === undefined || (member.activestatus && member.accountActiveStatus) === query.active) &&
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
  const modify = (id: MemberId, change: (current: MemberRecord) => MemberRecord) =>
    Effect.sync(() => Option.map(lookup(id), (current) => save(change(current))))

  return MemberStore.of({
    insert: (record) =>
      Effect.suspend(() => {
        const conflict = conflictOf(record)
        return conflict === undefined ? Effect.sync(() => void save(record)) : Effect.fail(conflict)
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
    setAccountStatus: (id, active) =>
      modify(
        id,
        (current) =>
          new MemberRecord({
            ...current,
            accountActiveStatus: active,
            sessionEpoch: active ? current.sessionEpoch : current.sessionEpoch + 1
          })
      ),
    update: (id, roleId, changes, endSessions) =>
      Effect.suspend(() => {
        const current = byId.get(id)
        if (current === undefined || current.roleId !== roleId) return Effect.succeedNone
        const next = new MemberRecord({
          ...current,
          ...changes,
          sessionEpoch: current.sessionEpoch + (endSessions ? 1 : 0)
        })
        const conflict = conflictOf(next)
        return conflict === undefined ? Effect.succeedSome(save(next)) : Effect.fail(conflict)
      }),
    setPassword: (id, passwordHash) =>
      modify(
        id,
        (current) => new MemberRecord({ ...current, passwordHash, sessionEpoch: current.sessionEpoch + 1 })
      ),
    remove: (id) =>
      Effect.sync(() => {
        const removed = lookup(id)
        if (Option.isSome(removed)) forget(removed.value)
        return removed
      })
  })
})

export const memberStoreLayer = Layer.effect(MemberStore, makeMemberStore)
