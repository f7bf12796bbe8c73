import { Context } from "effect"

/** The id of the request a use case serves, if any: audit entries name it. */
// Stryker disable next-line StringLiteral: the key only has to be unique; no value at run time depends on its text
export const CurrentRequestId = Context.Reference<string | undefined>("roster/core/CurrentRequestId", {
  defaultValue: () => undefined
})

/**
 * The name of the Idempotency-Key claim of the request a use case serves, if it carries a key,
 * unique to that claim: a change's audit entry keeps it, written with the change, so that a retry
 * after an unknown outcome finds what the first attempt did.
 */
// Stryker disable next-line StringLiteral: the key only has to be unique; no value at run time depends on its text
export const CurrentRequestKey = Context.Reference<string | undefined>("roster/core/CurrentRequestKey", {
  defaultValue: () => undefined
})
