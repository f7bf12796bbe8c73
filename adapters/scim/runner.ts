import { Cause, type Context, Effect, Exit, Option } from "effect"
import {
  type CorePorts,
  CurrentOrganization,
  CurrentRequestId,
  type DomainError,
  mayHaveChanged,
  type OrganizationId,
  type StoreWriteLedger,
  StoreWrites
} from "../../core/index.ts"
import { scimFailureOf } from "./domain-failure.ts"
import { ScimFailure } from "./scim-error.ts"

/** Where a SCIM request runs its use cases: the services, its organisation and its id. */
export interface Scope {
  readonly organizationId: OrganizationId
  readonly requestId: string | undefined
}

/**
 * Runs a use case to its end (a client hanging up never stops it between two writes) on the
 * services, in the request's organisation; a failure is answered as SCIM answers it. A defect is
 * thrown, for the edge to answer 500.
 */
export const makeRunner =
  (services: Context.Context<CorePorts>) =>
  async <A, E extends DomainError>(
    scope: Scope | undefined,
    useCase: Effect.Effect<A, E, CorePorts>
  ): Promise<A | ScimFailure> => {
    const ledger: StoreWriteLedger = { applied: false, uncertain: false }
    const scoped = useCase.pipe(
      Effect.provideService(StoreWrites, ledger),
      Effect.provideService(CurrentRequestId, scope?.requestId),
      (effect) =>
        scope === undefined
          ? effect
          : Effect.provideService(effect, CurrentOrganization, scope.organizationId),
      Effect.provideContext(services),
      Effect.uninterruptible
    )
    const exit = await Effect.runPromiseExit(scoped)
    if (Exit.isSuccess(exit)) return exit.value
    const error = Cause.findErrorOption(exit.cause)
    const failure = Option.isSome(error) ? scimFailureOf(error.value) : undefined
    if (failure !== undefined) {
      return failure.status === 503 && mayHaveChanged(ledger)
        ? new ScimFailure(
            503,
            "The store stopped answering after a change was sent: read before retrying",
            undefined,
            failure.headers
          )
        : failure
    }
    throw new UseCaseDefect(exit.cause)
  }
export type Runner = ReturnType<typeof makeRunner>

/** A use case that died: a bug, or a store answering what it never should. The edge answers 500. */
export class UseCaseDefect extends Error {
  constructor(override readonly cause: Cause.Cause<unknown>) {
    super("A use case died")
  }
}
