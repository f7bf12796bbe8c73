import { Effect, Layer, Option } from "effect"
import {
  AccountRecord,
  AlreadyMember,
  type AuditEntry,
  byCreation,
  type DuplicateEmail,
  type DuplicateUsername,
  inOrganization,
  isActiveMember,
  isOlderThan,
  loginKey,
  type MemberId,
  type MemberQuery,
  MemberRecord,
  MemberStore,
  type NewMember,
  type OrganizationId,
  syncInOrganization,
  UnknownRole
} from "../../core/index.ts"
import { MemoryAccounts } from "./accounts.ts"
import { MemoryAuditTrail } from "./audit-log.ts"
import { MemoryMemberships, type StoredMembership, storedMembershipOf } from "./memberships.ts"
import { MemoryRoleHolders } from "./role-holders.ts"

export const makeMemberStore = Effect.gen(function* () {
  const trail = yield* MemoryAuditTrail
  const roles = yield* MemoryRoleHolders
  const accounts = new MemoryAccounts()
  const memberships = new MemoryMemberships()

  const made = (membership: StoredMembership, account: ReturnType<MemoryAccounts["get"]>) =>
    new MemberRecord(
      {
        id: account.id,
        username: account.username,
        email: account.email,
        emailVerified: account.emailVerified,
        accountActiveStatus: account.accountActiveStatus,
        organizationId: membership.organizationId,
        roleId: membership.roleId,
        activestatus: membership.activestatus,
        createdAt: membership.createdAt,
        sessionEpoch: account.epoch + membership.epoch
      },
      // Both halves were checked when stored: every authenticated request reads one.
      { disableChecks: true }
    )
  /**
   * Each membership's record, with the account it was made from. Both are replaced, never changed,
   * when they change: while neither is, every read hands out the same record, as SQLite's remembered
   * reads do, so the record's face and answer are made once (`toMember`).
   */
  const shown = new WeakMap<StoredMembership, { readonly account: object; readonly record: MemberRecord }>()
  const view = (membership: StoredMembership): MemberRecord => {
    const account = accounts.get(membership.accountId)
    const seen = shown.get(membership)
    if (seen?.account === account) return seen.record
    const record = made(membership, account)
    shown.set(membership, { account, record })
    return record
  }
  const lookup = (organizationId: OrganizationId, id: MemberId) => memberships.find(organizationId, id)
  const membersOf = (organizationId: OrganizationId) => memberships.ofOrganization(organizationId).map(view)

  const matches = (member: MemberRecord, query: MemberQuery) =>
    (query.after === undefined || isOlderThan(query.after, member)) &&
    (query.roleId === undefined || member.roleId === query.roleId) &&
    (query.roleIds === undefined || query.roleIds.includes(member.roleId)) &&
    (query.active === undefined || isActiveMember(member) === query.active) &&
    (query.q === undefined ||
      member.username.toLowerCase().startsWith(query.q.toLowerCase()) ||
      member.email.startsWith(query.q.toLowerCase()))

  /** Deletes the membership, and its account when it was the last. */
  const leave = (membership: StoredMembership) => {
    if (!memberships.delete(membership)) accounts.delete(membership.accountId)
    roles.release(membership.roleId)
  }
  const unknownRole = (member: MemberRecord | NewMember): Effect.Effect<never, UnknownRole> =>
    Effect.fail(new UnknownRole({ roleId: member.roleId }))

  /** Applies an account-wide change to a member of the current organisation; none when there is none. */
  const changeAccount = <E>(
    id: MemberId,
    change: () => Effect.Effect<void, E>,
    entry: AuditEntry | undefined
  ) =>
    inOrganization((organizationId) =>
      Option.match(lookup(organizationId, id), {
        onNone: () => Effect.succeedNone,
        onSome: (membership) =>
          change().pipe(
            Effect.map(() => {
              trail.append(entry)
              return Option.some(view(membership))
            })
          )
      })
    )

  const membershipsOf = (id: MemberId) =>
    [...memberships.ofAccount(id)]
      .sort((a, b) => byCreation({ ...a, id: a.organizationId }, { ...b, id: b.organizationId }))
      .map(({ organizationId, roleId, activestatus, createdAt }) => ({
        organizationId,
        roleId,
        activestatus,
        createdAt
      }))

  return MemberStore.of({
    insert: ({ passwordHash, ...member }, entry) =>
      Effect.suspend((): Effect.Effect<void, DuplicateEmail | DuplicateUsername | UnknownRole> => {
        const account = new AccountRecord({ ...member, passwordHash })
        const conflict = accounts.conflictOf(account)
        if (conflict !== undefined) return Effect.fail(conflict)
        if (!roles.hold(member.organizationId, member.roleId)) return unknownRole(member)
        accounts.save(account, 0)
        memberships.save(storedMembershipOf(member))
        trail.append(entry)
        return Effect.void
      }),
    join: (member, entry) =>
      Effect.suspend((): Effect.Effect<boolean, AlreadyMember | UnknownRole> => {
        if (!accounts.has(member.id)) return Effect.succeed(false)
        if (Option.isSome(lookup(member.organizationId, member.id))) {
          return Effect.fail(new AlreadyMember({ email: member.email }))
        }
        if (!roles.hold(member.organizationId, member.roleId)) return unknownRole(member)
        memberships.save(storedMembershipOf(member))
        trail.append(entry)
        return Effect.succeed(true)
      }),
    findById: (id) => syncInOrganization((organizationId) => Option.map(lookup(organizationId, id), view)),
    findAccount: (id) => Effect.sync(() => accounts.find(id)),
    findByLogin: (login) => Effect.sync(() => accounts.findByKey(loginKey(login))),
    findByLogins: (logins) => Effect.sync(() => accounts.findByKeys(logins.map(loginKey))),
    membershipsOf: (id) => Effect.sync(() => membershipsOf(id)),
    findWithMemberships: (id) =>
      syncInOrganization((organizationId) =>
        Option.map(lookup(organizationId, id), (found) => ({
          member: view(found),
          memberships: membershipsOf(id)
        }))
      ),
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
      changeAccount(
        id,
        () => Effect.sync(() => accounts.change(id, { accountActiveStatus: active }, !active)),
        entry
      ),
    setPassword: (id, passwordHash, entry) =>
      changeAccount(id, () => Effect.sync(() => accounts.change(id, { passwordHash }, true)), entry),
    updateAccount: (id, changes, entry) =>
      changeAccount(
        id,
        () => {
          const conflict = accounts.conflictOf(new AccountRecord({ ...accounts.get(id), ...changes }))
          if (conflict !== undefined) return Effect.fail(conflict)
          return Effect.sync(() => accounts.change(id, changes, false))
        },
        entry
      ),
    verifyEmail: (id, email, entry) =>
      inOrganization((organizationId) => {
        const membership = Option.getOrUndefined(lookup(organizationId, id))
        if (membership === undefined || accounts.get(id).email !== email) return Effect.succeedNone
        accounts.change(id, { emailVerified: true }, false)
        trail.append(entry)
        return Effect.succeed(Option.some(view(membership)))
      }),
    update: (id, roleId, changes, endSessions, entry) =>
      inOrganization((organizationId) => {
        const current = Option.getOrUndefined(lookup(organizationId, id))
        if (current === undefined || current.roleId !== roleId) return Effect.succeedNone
        const moveTo = changes.roleId ?? roleId
        if (moveTo !== roleId) {
          if (!roles.hold(organizationId, moveTo)) return Effect.fail(new UnknownRole({ roleId: moveTo }))
          roles.release(roleId)
        }
        const next = { ...current, ...changes, epoch: current.epoch + (endSessions ? 1 : 0) }
        memberships.save(next)
        trail.append(entry)
        return Effect.succeedSome(view(next))
      }),
    removeAll: syncInOrganization((organizationId) => {
      for (const membership of memberships.ofOrganization(organizationId)) leave(membership)
    }),
    remove: (id, entry) =>
      syncInOrganization((organizationId) =>
        Option.map(lookup(organizationId, id), (membership) => {
          const removed = view(membership)
          leave(membership)
          trail.append(entry)
          return removed
        })
      )
  })
})

export const memberStoreLayer = Layer.effect(MemberStore, makeMemberStore)
