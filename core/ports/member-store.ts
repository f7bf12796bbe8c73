import { Context, type DateTime, type Effect, type Option } from "effect"
import type { DuplicateEmail, DuplicateUsername, StoreUnavailable } from "../model/errors.ts"
import type { MemberId } from "../model/ids.ts"
import type { MemberRecord } from "../model/member.ts"

/**
 * Team members. Usernames are unique ignoring case, e-mails are stored lower-cased
 * and unique; the store enforces both atomically, whatever the number of instances.
 */
export class MemberStore extends Context.Service<
  MemberStore,
  {
    readonly insert: (
      record: MemberRecord
    ) => Effect.Effect<void, DuplicateEmail | DuplicateUsername | StoreUnavailable>
    readonly findById: (id: MemberId) => Effect.Effect<Option.Option<MemberRecord>, StoreUnavailable>
    /** By username (ignoring case) or by lower-cased e-mail. */
    readonly findByLogin: (login: string) => Effect.Effect<Option.Option<MemberRecord>, StoreUnavailable>
    readonly list: Effect.Effect<ReadonlyArray<MemberRecord>, StoreUnavailable>
    /** Sets the account flag; disabling also voids every session issued up to `at`. */
    readonly setAccountStatus: (
      id: MemberId,
      active: boolean,
      at: DateTime.Utc
    ) => Effect.Effect<Option.Option<MemberRecord>, StoreUnavailable>
  }
>()("roster/core/ports/MemberStore") {}
