import { Context, type Effect, type Option } from "effect"
import type {
  AccountChanges,
  AccountRecord,
  Membership,
  MembershipChanges,
  NewMember
} from "../model/account.ts"
import type { AuditEntry } from "../model/audit.ts"
import type {
  AlreadyMember,
  DuplicateEmail,
  DuplicateUsername,
  StoreUnavailable,
  UnknownRole
} from "../model/errors.ts"
import type { MemberId, RoleId } from "../model/ids.ts"
import type { MemberRecord } from "../model/member.ts"
import type { MemberQuery } from "../model/member-query.ts"

/**
 * Accounts and their memberships. A member is a membership of the current organisation seen with
 * its account; every read and change of one names that organisation, and an account that is no
 * member there is not found. Every change takes the audit entry that records it, written in the same
 * atomic write (see `AuditLog`). Usernames are unique by `usernameKey`, e-mails are stored
 * normalised and unique, across the deployment; the store enforces both atomically, whatever the
 * number of instances. A member holds a role of their organisation: writing one into a role that is
 * not there (or is being deleted) fails `UnknownRole`, and `RoleStore.remove` refuses a role while a
 * member holds it or is being written into it; each store keeps that promise in its own write.
 */
export class MemberStore extends Context.Service<
  MemberStore,
  {
    /** A new account with its membership of the member's organisation. */
    readonly insert: (
      member: NewMember,
      entry?: AuditEntry
    ) => Effect.Effect<void, DuplicateEmail | DuplicateUsername | UnknownRole | StoreUnavailable>
    /**
     * A membership of the current organisation for the existing account `member.id` (its account
     * fields are the account's, whatever `member` says). False when the account no longer exists.
     */
    readonly join: (
      member: MemberRecord,
      entry?: AuditEntry
    ) => Effect.Effect<boolean, AlreadyMember | UnknownRole | StoreUnavailable>
    readonly findById: (id: MemberId) => Effect.Effect<Option.Option<MemberRecord>, StoreUnavailable>
    /** The account, wherever it is a member. */
    readonly findAccount: (id: MemberId) => Effect.Effect<Option.Option<AccountRecord>, StoreUnavailable>
    /** The account whose `usernameKey` or e-mail equals `loginKey(login)`. */
    readonly findByLogin: (login: string) => Effect.Effect<Option.Option<AccountRecord>, StoreUnavailable>
    /** The accounts any of `logins` finds as `findByLogin` does, each once, in one read. */
    readonly findByLogins: (
      logins: ReadonlyArray<string>
    ) => Effect.Effect<ReadonlyArray<AccountRecord>, StoreUnavailable>
    /** The account's memberships, oldest first. */
    readonly membershipsOf: (id: MemberId) => Effect.Effect<ReadonlyArray<Membership>, StoreUnavailable>
    /**
     * `findById` with `membershipsOf` the member's account, in one read where the store allows: for
     * a change that may be the account's, which an organisation may make only on an account of its own.
     */
    readonly findWithMemberships: (
      id: MemberId
    ) => Effect.Effect<
      Option.Option<{ readonly member: MemberRecord; readonly memberships: ReadonlyArray<Membership> }>,
      StoreUnavailable
    >
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
    /**
     * Sets the account flag; disabling also ends the account's sessions in every organisation.
     * None when the account is no member of the current organisation.
     */
    readonly setAccountStatus: (
      id: MemberId,
      active: boolean,
      entry?: AuditEntry
    ) => Effect.Effect<Option.Option<MemberRecord>, StoreUnavailable>
    /** Replaces the password hash and ends the account's sessions in every organisation. */
    readonly setPassword: (
      id: MemberId,
      passwordHash: string,
      entry?: AuditEntry
    ) => Effect.Effect<Option.Option<MemberRecord>, StoreUnavailable>
    /** Sets the account's username or e-mail (already normalised); both stay unique. */
    readonly updateAccount: (
      id: MemberId,
      changes: AccountChanges,
      entry?: AuditEntry
    ) => Effect.Effect<Option.Option<MemberRecord>, DuplicateEmail | DuplicateUsername | StoreUnavailable>
    /**
     * Marks the account's e-mail verified, in one atomic write, only while the account's e-mail is
     * still `email` (the address that was proven). None when it is not, or when the account is no
     * member of the current organisation.
     */
    readonly verifyEmail: (
      id: MemberId,
      email: string,
      entry?: AuditEntry
    ) => Effect.Effect<Option.Option<MemberRecord>, StoreUnavailable>
    /**
     * Sets `changes` of the membership in one atomic write, only while the member still holds
     * `roleId`; `endSessions` ends the membership's sessions. None when there is no such member in
     * that role; `UnknownRole` when `changes.roleId` names no role of the organisation.
     */
    readonly update: (
      id: MemberId,
      roleId: RoleId,
      changes: MembershipChanges,
      endSessions: boolean,
      entry?: AuditEntry
    ) => Effect.Effect<Option.Option<MemberRecord>, UnknownRole | StoreUnavailable>
    /** Deletes every membership of the organisation (it is being deleted), and accounts left with none. */
    readonly removeAll: Effect.Effect<void, StoreUnavailable>
    /**
     * Deletes the membership, and its account when it was the last; answers what was deleted, none
     * when there was nothing.
     */
    readonly remove: (
      id: MemberId,
      entry?: AuditEntry
    ) => Effect.Effect<Option.Option<MemberRecord>, StoreUnavailable>
  }
>()("roster/core/ports/MemberStore") {}

/** What `MemberStore` reads, which each store answers apart from what it writes. */
export type MemberStoreReads = Pick<
  MemberStore["Service"],
  | "findById"
  | "findAccount"
  | "findByLogin"
  | "findByLogins"
  | "membershipsOf"
  | "findWithMemberships"
  | "page"
  | "countActive"
>
