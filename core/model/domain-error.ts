import type * as Errors from "./errors.ts"
import type * as SsoErrors from "./sso-errors.ts"

type Exported = (typeof Errors)[keyof typeof Errors] | (typeof SsoErrors)[keyof typeof SsoErrors]

/**
 * Every failure a use case may end with, but for defects: each error class `errors.ts` and `sso-errors.ts` export,
 * derived, so a new one is in it by being written there, and every adapter's map of them
 * (`satisfies` over this union) fails to compile until it answers the new one.
 */
export type DomainError = Exported extends infer C
  ? C extends abstract new (
      ...args: never
    ) => infer Instance
    ? Instance extends Error & { readonly _tag: string }
      ? Instance
      : never
    : never
  : never
