import { Context } from "effect"

/** The id of the request a use case serves, if any: audit entries name it. */
// Stryker disable next-line StringLiteral: the key only has to be unique; no value at run time depends on its text
export const CurrentRequestId = Context.Reference<string | undefined>("roster/core/CurrentRequestId", {
  defaultValue: () => undefined
})
