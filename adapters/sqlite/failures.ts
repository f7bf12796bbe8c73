import { Effect, Schema } from "effect"
import { StoreUnavailable } from "../../core/index.ts"
import { Metrics } from "../metrics/recorder.ts"
import { resultCodeOf, resultCodes } from "./connection.ts"

/** A unique constraint refused the write: the caller turns it into the port's conflict error. */
export class UniqueViolation extends Schema.TaggedError<UniqueViolation>()("UniqueViolation", {}) {}

const countFailure = Effect.flatMap(Metrics, (metrics) => Effect.sync(() => metrics?.storeError("sqlite")))

const isBusy = (code: number | undefined) =>
  code !== undefined && ((code & 0xff) === resultCodes.busy || (code & 0xff) === resultCodes.locked)

const isUnique = (code: number | undefined) =>
  code === resultCodes.constraintUnique || code === resultCodes.constraintPrimaryKey

/** A driver's error as the ports know it: busy is "not now", a unique constraint a conflict, the rest a bug. */
export const classify = (error: unknown): Effect.Effect<never, UniqueViolation | StoreUnavailable> => {
  const code = resultCodeOf(error)
  if (isBusy(code)) return Effect.andThen(countFailure, Effect.fail(new StoreUnavailable()))
  if (isUnique(code)) return Effect.fail(new UniqueViolation())
  return Effect.die(error)
}

export const dieOnViolation = <A, E>(effect: Effect.Effect<A, E | UniqueViolation>) =>
  Effect.catchTag(effect as Effect.Effect<A, UniqueViolation>, "UniqueViolation", (violation) =>
    Effect.die(violation)
  ) as Effect.Effect<A, Exclude<E, UniqueViolation>>
