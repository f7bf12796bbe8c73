import { Cause } from "effect"

/** Connection strings may carry `user:password@`: cut before anything is logged. */
export const withoutCredentials = (text: string) => text.replace(/\/\/[^\s/@]+@/g, "//***@")

/** A failure's cause as it may be logged: no credentials, and bounded. */
export const loggableCause = (cause: Cause.Cause<unknown>) =>
  withoutCredentials(Cause.pretty(cause)).slice(0, 4000)
