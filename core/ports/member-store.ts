import { Context, type Effect, type Option } from "effect"
import type { AuditEntry } from "../model/audit.ts"
import type { DuplicateEmail, DuplicateUsername, StoreUnavailable } from "../model/errors.ts"
import type { MemberId, RoleId } from "../model/ids.ts"
import type { MemberChanges, MemberRecord } from "../model/member.ts"
import type { MemberQuery } from "../model/member-query.ts"

/**
 * Team members. Every change takes the audit entry that records it, written in the same atomic
 * write (see `AuditLog`). Usernames are unique by `usernameKey`, e-mails are stored normalised and unique;
 * the store enforces both atomically, whatever the number of instances.
 */
export class MemberStore extends Context.Service<
  MemberStore,
  {
    readonly insert: (
      record: MemberRecord,
      entry?: AuditEntry
    ) => Effect.Effect<void, DuplicateEmail | DuplicateUsername | StoreUnavailable>
    readonly findById: (id: MemberId) => Effect.Effect<Option.Option<MemberRecord>, StoreUnavailable>
    /** The member whose `usernameKey` or e-mail equals `loginKey(login)`. */
    readonly findByLogin: (login: string) => Effect.Effect<Option.Option<MemberRecord>, StoreUnavailable>
    /**
     * At most `limit` members matching the query, oldest first (see `byCreation`), starting after
     * `query.after`: each call is one indexed read, however deep the page.
     */
    readonly page: (
      query: MemberQuery,
      limit: number
    ) => Effect.Effect<ReadonlyArray<MemberRecord>, StoreUnavailable>
    /** How many members have both `activestatus` and `accountActiveStatus` true: the seats billed. */
    readonly countActive: Effect.Effect<number, StoreUnavailable>
    /** Sets the account flag in one atomic write; disabling also increments `sessionEpoch`. */
    readonly setAccountStatus: (
      id: MemberId,
      active: boolean,
      entry?: AuditEntry
    ) => Effect.Effect<Option.Option<MemberRecord>, StoreUnavailable>
    /**
     * Sets `changes` (e-mail already normalised) in one atomic write, only while the member still
     * holds `roleId`; `endSessions` also increments `sessionEpoch`. None when there is no such member
     * in that role. Usernames and e-mails stay unique.
     */
    readonly update: (
      id: MemberId,
      roleId: RoleId,
      changes: MemberChanges,
      endSessions: boolean,
      entry?: AuditEntry
    ) => Effect.Effect<Option.Option<MemberRecord>, DuplicateEmail | DuplicateUsername | StoreUnavailable>
    /** Replaces the password hash and increments `sessionEpoch`, in one atomic write. */
    readonly setPassword: (
      id: MemberId,
      passwordHash: string,
      entry?: AuditEntry
    ) => Effect.Effect<Option.Option<MemberRecord>, StoreUnavailable>
    /** Deletes every member of the organisation (it is being deleted): no entry each. */
    readonly removeAll: Effect.Effect<void, StoreUnavailable>
    /** Deletes the member; answers what was deleted, none when there was nothing. */
    readonly remove: (
      id: MemberId,
      entry?: AuditEntry
    ) => Effect.Effect<Option.Option<MemberRecord>, StoreUnavailable>
  }
>()("roster/core/ports/MemberStore") {}
