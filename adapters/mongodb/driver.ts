import { Effect, Schema } from "effect"
import {
  MongoClientClosedError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerClosedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
  MongoWriteConcernError
} from "mongodb"
import { StoreUnavailable, type StoreWriteLedger, StoreWrites } from "../../core/index.ts"
import { Metrics } from "../metrics/recorder.ts"

/** A unique index refused the write: the caller turns it into the port's conflict error. */
export class DuplicateKey extends Schema.TaggedError<DuplicateKey>()("DuplicateKey", {}) {}

const duplicateKeyCode = 11000

/** Server answers that mean "not now" (failover, shutdown, time limits), not "wrong request". */
const transientServerCodes = new Set([
  6, 7, 50, 89, 91, 134, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436
])

/** Client-side errors raised before a command left: it cannot have taken effect. */
const notSent = [
  MongoServerSelectionError,
  MongoNotConnectedError,
  MongoTopologyClosedError,
  MongoClientClosedError
]

/**
 * Client-side errors that may have struck after a command left: a write may have taken effect
 * (a broken connection, a timeout, a write concern not confirmed), unless the connection never
 * opened or the pool refused it beforehand.
 */
const maybeSent = [
  MongoNetworkError,
  MongoServerClosedError,
  MongoOperationTimeoutError,
  MongoWriteConcernError
]

const sentBefore = (error: unknown) =>
  !(
    (error instanceof MongoNetworkError &&
      ((error as { readonly beforeHandshake?: boolean }).beforeHandshake === true ||
        error.name === "MongoPoolClearedError")) ||
    error instanceof MongoServerError
  )

/**
 * The longest one operation may take before it is answered as unavailable. The driver alone can
 * wait far longer on a database that hangs instead of refusing (its monitor times out after ~40 s).
 */
const operationDeadline = "5 seconds"

/**
 * FerretDB on SQLite (the tests' MongoDB-compatible server) reports a unique index refusing an
 * update, unlike an insert, as an internal error naming SQLite's constraint rather than as 11000.
 */
export const isUniqueViolation = (error: { readonly code?: unknown; readonly message: string }) =>
  error.code === duplicateKeyCode || (error.code === 1 && error.message.includes("UNIQUE constraint failed"))

/**
 * Socket errors a runtime's own `net` raises through the driver unwrapped (Bun's does, from a write
 * on a connection the server reset): the connection broke, whether or not the command had left.
 */
const socketErrorCodes = new Set([
  "ECONNRESET",
  "EPIPE",
  "ECONNREFUSED",
  "ECONNABORTED",
  "ETIMEDOUT",
  "ENOTCONN"
])

const isSocketError = (error: unknown) =>
  error instanceof Error && socketErrorCodes.has(String((error as { readonly code?: unknown }).code))

/** What a driver failure means: a conflict, "not now" (and whether the command may have acted), or a bug. */
const classify = (error: unknown) => {
  if (error instanceof MongoWriteConcernError) return { failure: new StoreUnavailable(), sent: true }
  if (error instanceof MongoServerError) {
    if (isUniqueViolation(error)) return { failure: new DuplicateKey(), sent: false }
    const transient =
      transientServerCodes.has(Number(error.code)) || error.hasErrorLabel("RetryableWriteError")
    return transient ? { failure: new StoreUnavailable(), sent: false } : undefined
  }
  if (notSent.some((kind) => error instanceof kind)) return { failure: new StoreUnavailable(), sent: false }
  if (maybeSent.some((kind) => error instanceof kind)) {
    return { failure: new StoreUnavailable(), sent: sentBefore(error) }
  }
  if (isSocketError(error)) return { failure: new StoreUnavailable(), sent: true }
  return undefined
}

/** Counted for the operators when metrics are on; nothing is read or paid on the way of a success. */
const countFailure = Effect.flatMap(Metrics, (metrics) => Effect.sync(() => metrics?.storeError("mongodb")))

const run = <A>(call: () => Promise<A>, ledger: StoreWriteLedger | undefined) =>
  Effect.tryPromise({ try: call, catch: (error) => error }).pipe(
    Effect.catch((error) => {
      const known = classify(error)
      if (known === undefined) return Effect.die(error)
      if (ledger !== undefined && known.sent) ledger.uncertain = true
      return Effect.fail(known.failure)
    }),
    Effect.timeoutOrElse({
      duration: operationDeadline,
      orElse: () => {
        // The command is still out there: a write may yet take effect.
        if (ledger !== undefined) ledger.uncertain = true
        return Effect.fail(new StoreUnavailable())
      }
    }),
    Effect.tapError((failure) => (failure._tag === "StoreUnavailable" ? countFailure : Effect.void))
  )

/**
 * Runs one driver call that reads. A duplicate key becomes `DuplicateKey`; the database being
 * unreachable or unready becomes `StoreUnavailable` (503, retry later); anything else is a bug, so
 * a defect.
 */
export const attempt = <A>(call: () => Promise<A>): Effect.Effect<A, DuplicateKey | StoreUnavailable> =>
  run(call, undefined)

/**
 * `attempt` for a call that writes: its outcome goes into the unit of work's ledger (see
 * `StoreWrites`), so that a later failure is answered as "outcome unknown" rather than "nothing
 * changed" when this write took effect, or may have.
 */
export const attemptWrite = <A>(call: () => Promise<A>): Effect.Effect<A, DuplicateKey | StoreUnavailable> =>
  Effect.flatMap(StoreWrites, (ledger) =>
    Effect.tap(
      run(call, ledger),
      Effect.sync(() => {
        ledger.applied = true
      })
    )
  )

/** A call no unique index can refuse: a duplicate key there is a bug, so it is a defect. */
export const duplicateIsDefect = <A, R>(
  self: Effect.Effect<A, DuplicateKey | StoreUnavailable, R>
): Effect.Effect<A, StoreUnavailable, R> =>
  Effect.catchTag(self, "DuplicateKey", (error) => Effect.die(error))

/** For reads no unique index can refuse: a duplicate there would be a bug, so it is a defect. */
export const query = <A>(call: () => Promise<A>): Effect.Effect<A, StoreUnavailable> =>
  duplicateIsDefect(attempt(call))

/** `query` for a write (see `attemptWrite`). */
export const queryWrite = <A>(call: () => Promise<A>): Effect.Effect<A, StoreUnavailable> =>
  duplicateIsDefect(attemptWrite(call))
