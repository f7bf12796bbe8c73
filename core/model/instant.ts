import { Schema } from "effect"

/**
 * An instant written in RFC 3339 form only: the runtime's date parser alone takes `0.5` or
 * `March 7` too, which no client should find accepted.
 */
export const Rfc3339Instant = Schema.String.check(
  Schema.isPattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/u, {
    expected: "an RFC 3339 date-time such as 2026-11-23T08:00:00Z"
  })
).pipe(Schema.decodeTo(Schema.DateTimeUtcFromString))
