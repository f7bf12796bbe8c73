import { Context } from "effect"

/** How many requests this instance has taken in: what tells the events' sender it is busy. */
export interface RequestCount {
  started: number
}

/**
 * The instance's count of requests, counted by the edge as each arrives. The service provides one
 * to its handler and its events' sender, which yields to requests; without one, the edge counts
 * into a count nobody reads.
 */
// Stryker disable next-line StringLiteral: the key only has to be unique; no value at run time depends on its text
export const RequestsStarted = Context.Reference<RequestCount>("roster/http/RequestsStarted", {
  defaultValue: () => ({ started: 0 })
})
