import { Context, type Effect, type Option } from "effect"
import type { AccountToken, AccountTokenPurpose } from "../model/account-token.ts"
import type { StoreUnavailable } from "../model/errors.ts"
import type { TokenHash } from "../model/ids.ts"

/**
 * One-time tokens of accounts (password reset, e-mail verification), across organisations. Every
 * operation is one atomic write or read of the store, whatever the number of instances; stores may
 * forget a token once it has expired.
 */
export class AccountTokenStore extends Context.Service<
  AccountTokenStore,
  {
    /** Keeps `token`, replacing the account's previous token of the same purpose. */
    readonly issue: (token: AccountToken) => Effect.Effect<void, StoreUnavailable>
    /** The token of `purpose` with that digest, expired or not; a used one is gone. */
    readonly find: (
      purpose: AccountTokenPurpose,
      tokenHash: TokenHash
    ) => Effect.Effect<Option.Option<AccountToken>, StoreUnavailable>
    /**
     * Spends one of the token's tries, atomically, answering how many are left; the last spent
     * deletes it. None when there is no such token.
     */
    readonly spendTry: (
      purpose: AccountTokenPurpose,
      tokenHash: TokenHash
    ) => Effect.Effect<Option.Option<number>, StoreUnavailable>
    /** Deletes the token and answers it: of two uses at once, exactly one gets it. */
    readonly consume: (
      purpose: AccountTokenPurpose,
      tokenHash: TokenHash
    ) => Effect.Effect<Option.Option<AccountToken>, StoreUnavailable>
  }
>()("roster/core/ports/AccountTokenStore") {}
