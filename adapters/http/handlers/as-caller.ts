import { Effect } from "effect"
import type { Principal } from "../../../core/index.ts"
import { CurrentPrincipal } from "../api/middleware.ts"
import { type DomainError, toProblem } from "../to-problem.ts"

/** Runs a use case as the authenticated caller and answers its failures as problems. */
export const asCaller = <A, E extends DomainError, R>(
  useCase: (actor: Principal) => Effect.Effect<A, E, R>
) => CurrentPrincipal.use(useCase).pipe(Effect.mapError(toProblem))
