import type * as Errors from "./errors.ts"

type Exported = (typeof Errors)[keyof typeof Errors]

/**
 * Every failure a use case may end with, but for defects: each error class `errors.ts` exports,
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
