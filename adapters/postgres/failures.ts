import { Effect, Schema } from "effect"
import { DatabaseError } from "pg"
import { StoreUnavailable } from "../../core/index.ts"
import { Metrics } from "../metrics/recorder.ts"

/** A unique index refused the write (`constraint` names which): the caller turns it into its conflict. */
export class UniqueViolation extends Schema.TaggedError<UniqueViolation>()("UniqueViolation", {
  constraint: Schema.String
}) {}

const uniqueViolation = "23505"

/**
 * SQLSTATE classes and codes that mean "not now", not "wrong request": the connection failed (08),
 * the server is short of resources (53), shutting down or starting (57P01–57P03), or a transaction
 * lost to another (40001, 40P01) and may be tried again.
 */
const transient = (code: string) =>
  code.startsWith("08") ||
  code.startsWith("53") ||
  ["57P01", "57P02", "57P03", "40001", "40P01"].includes(code)

/** Errors of the connection itself, raised by Node's sockets or the driver before any SQL state. */
const socketCodes = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND"])
const driverMessages =
  /Connection terminated|connection error|timeout exceeded when trying to connect|Query read timeout|Client was closed|Cannot use a pool after/

/** Whether `error` says the server cannot be reached or the connection broke: the client is spent. */
export const isConnectionFailure = (error: unknown) => {
  if (error instanceof DatabaseError) return error.code !== undefined && transient(error.code)
  if (!(error instanceof Error)) return false
  const code = (error as { readonly code?: unknown }).code
  return (typeof code === "string" && socketCodes.has(code)) || driverMessages.test(error.message)
}

const countFailure = Effect.flatMap(Metrics, (metrics) => Effect.sync(() => metrics?.storeError("postgres")))

/**
 * A driver's error as the ports know it, translated at the edge: the server out of reach is "not
 * now" (503), a unique index a conflict the caller names, anything else a bug (a defect).
 */
export const classify = (error: unknown): Effect.Effect<never, UniqueViolation | StoreUnavailable> => {
  if (error instanceof DatabaseError && error.code === uniqueViolation) {
    return Effect.fail(new UniqueViolation({ constraint: error.constraint ?? "" }))
  }
  if (isConnectionFailure(error)) return Effect.andThen(countFailure, Effect.fail(new StoreUnavailable()))
  return Effect.die(error)
}
