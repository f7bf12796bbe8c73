import { Effect } from "effect"
import type { Principal } from "../../../core/index.ts"
import { CurrentPrincipal } from "../api/middleware.ts"
import { type HttpServices, onServices } from "../services.ts"
import { type DomainError, toProblem } from "../to-problem.ts"

/**
 * Runs a use case to its end, even when the client hangs up: stopping it between two of its writes
 * would leave half of its work done (a counted login never given back, a subscription half replaced).
 */
export const toCompletion = <A, E extends DomainError, R>(useCase: Effect.Effect<A, E, R>) =>
  Effect.uninterruptible(useCase).pipe(Effect.mapError(toProblem))

/** Runs a use case as the authenticated caller and answers its failures as problems. */
export const asCaller = <A, E extends DomainError, R extends HttpServices>(
  useCase: (actor: Principal) => Effect.Effect<A, E, R>
) => CurrentPrincipal.use((actor) => onServices(toCompletion(useCase(actor))))

/** `asCaller` for a use case that changes something: its audit entries name the request. */
export const asRecordedCaller = <A, E extends DomainError, R extends HttpServices>(
  useCase: (actor: Principal) => Effect.Effect<A, E, R>
) => CurrentPrincipal.use((actor) => onServices(toCompletion(useCase(actor)), { recorded: true }))
