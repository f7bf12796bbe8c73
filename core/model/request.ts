import { Context } from "effect"

/** The id of the request a use case serves, if any: audit entries name it. */
export const CurrentRequestId = Context.Reference<string | undefined>("roster/core/CurrentRequestId", {
  defaultValue: () => undefined
})
