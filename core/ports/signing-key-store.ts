import { Context, type Effect } from "effect"
import type { StoreUnavailable } from "../model/errors.ts"
import type { SigningKey } from "../model/signing-key.ts"

/** The keys access tokens are signed with, shared by every instance on the store. */
export class SigningKeyStore extends Context.Service<
  SigningKeyStore,
  {
    /** Every key kept, retired ones included, in the order they were made. */
    readonly all: Effect.Effect<ReadonlyArray<SigningKey>, StoreUnavailable>
    /**
     * `all`, as this instance read it within the last seconds: what signing reads on every token's
     * path, so that a token costs no read of its own. A rotation reaches it within that time.
     */
    readonly recent: Effect.Effect<ReadonlyArray<SigningKey>, StoreUnavailable>
    /**
     * Adds a key, unless another holds its place in the order (`sequence`): false then, nothing
     * written, so that two instances making the first key, or rotating at once, make one.
     */
    readonly add: (key: SigningKey) => Effect.Effect<boolean, StoreUnavailable>
    /** Removes the key `kid` names; false when there is none. */
    readonly remove: (kid: string) => Effect.Effect<boolean, StoreUnavailable>
  }
>()("roster/core/ports/SigningKeyStore") {}
