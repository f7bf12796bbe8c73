import { Effect } from "effect"
import { mayHaveChanged, type Principal, type StoreWriteLedger, StoreWrites } from "../../../core/index.ts"
import { CurrentPrincipal } from "../api/middleware.ts"
import type { HttpServices } from "../handed-services.ts"
import * as Problem from "../problems.ts"
import { type DomainError, toProblem } from "../to-problem.ts"
import { inUseCaseSpan } from "./use-case-span.ts"

const outcomeUnknown = new Problem.OutcomeUnknown({
  detail:
    "The store stopped answering after a change was sent; it may have taken effect. Read before retrying, or retry with the same Idempotency-Key"
})

/** The problem of a failure: a store failure after a write took effect, or may have, is not "nothing changed". */
const problemOf =
  (ledger: StoreWriteLedger) =>
  <E extends DomainError>(error: E) =>
    error._tag === "StoreUnavailable" && mayHaveChanged(ledger) ? outcomeUnknown : toProblem(error)

/**
 * Runs a use case to its end, even when the client hangs up: stopping it between two of its writes
 * would leave half of its work done (a counted login never given back, a subscription half replaced).
 * Its writes are kept in a ledger of its own, to answer a store failure honestly.
 */
export const toCompletion = <A, E extends DomainError, R>(useCase: Effect.Effect<A, E, R>) =>
  Effect.suspend(() => {
    const ledger: StoreWriteLedger = { applied: false, uncertain: false }
    return Effect.uninterruptible(inUseCaseSpan(useCase)).pipe(
      Effect.provideService(StoreWrites, ledger),
      Effect.mapError(problemOf(ledger))
    )
  })

/**
 * Runs a use case as the authenticated caller and answers its failures as problems; the
 * authentication middleware gave the request the caller and the services.
 */
export const asCaller = <A, E extends DomainError, R extends HttpServices>(
  useCase: (actor: Principal) => Effect.Effect<A, E, R>
) => CurrentPrincipal.use((actor) => toCompletion(useCase(actor)))
