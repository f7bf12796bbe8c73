import { Effect, Option, Schema, SchemaTransformation } from "effect"
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
import { StoreUnavailable } from "../../core/index.ts"

/** A unique index refused the write: the caller turns it into the port's conflict error. */
export class DuplicateKey extends Schema.TaggedError<DuplicateKey>()("DuplicateKey", {}) {}

const duplicateKeyCode = 11000

/** Server answers that mean "not now" (failover, shutdown, time limits), not "wrong request". */
const transientServerCodes = new Set([
  6, 7, 50, 89, 91, 134, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436
])

/** Client-side errors that mean the database cannot be reached now; every other one is a bug. */
const unreachable = [
  MongoNetworkError,
  MongoServerSelectionError,
  MongoNotConnectedError,
  MongoTopologyClosedError,
  MongoClientClosedError,
  MongoServerClosedError,
  MongoOperationTimeoutError,
  MongoWriteConcernError
]

/**
 * The longest one operation may take before it is answered as unavailable. The driver alone can
 * wait far longer on a database that hangs instead of refusing (its monitor times out after ~40 s).
 */
const operationDeadline = "5 seconds"

/**
 * FerretDB on SQLite (the tests' MongoDB-compatible server) reports a unique index refusing an
 * update, unlike an insert, as an internal error naming SQLite's constraint rather than as 11000.
 */
const isUniqueViolation = (error: MongoServerError) =>
  error.code === duplicateKeyCode || (error.code === 1 && error.message.includes("UNIQUE constraint failed"))

const classify = (error: unknown) => {
  if (error instanceof MongoServerError) {
    if (isUniqueViolation(error)) return new DuplicateKey()
    const transient =
      transientServerCodes.has(Number(error.code)) || error.hasErrorLabel("RetryableWriteError")
    return transient ? new StoreUnavailable() : undefined
  }
  return unreachable.some((kind) => error instanceof kind) ? new StoreUnavailable() : undefined
}

/**
 * Runs one driver call. A duplicate key becomes `DuplicateKey`; the database being unreachable or
 * unready becomes `StoreUnavailable` (503, retry later); anything else is a bug, so a defect.
 */
export const attempt = <A>(run: () => Promise<A>): Effect.Effect<A, DuplicateKey | StoreUnavailable> =>
  Effect.tryPromise({ try: run, catch: (error) => error }).pipe(
    Effect.catch((error) => {
      const known = classify(error)
      return known === undefined ? Effect.die(error) : Effect.fail(known)
    }),
    Effect.timeoutOrElse({ duration: operationDeadline, orElse: () => Effect.fail(new StoreUnavailable()) })
  )

/** For writes no unique index can refuse: a duplicate there would be a bug, so it is a defect. */
export const query = <A>(run: () => Promise<A>): Effect.Effect<A, StoreUnavailable> =>
  attempt(run).pipe(Effect.catchTag("DuplicateKey", (error) => Effect.die(error)))

/**
 * The one schema of a collection: the stored document on its encoded side, the domain value on its
 * decoded side, so the same schema reads and writes it.
 */
export const collectionSchema = <Stored extends Schema.Top, Value extends Schema.Top>(
  stored: Stored,
  value: Value,
  mapping: {
    readonly decode: (document: Stored["Type"]) => Value["Encoded"]
    readonly encode: (value: Value["Encoded"]) => Stored["Type"]
  }
) => stored.pipe(Schema.decodeTo(value, SchemaTransformation.transform(mapping)))

/** Encodes a value into its stored document; a value that does not encode is a bug, a defect. */
export const encodeDocument =
  <S extends Schema.Top & { readonly EncodingServices: never }>(schema: S) =>
  (value: S["Type"]): S["Encoded"] =>
    Schema.encodeSync(schema)(value)

/** Decodes a stored document at the edge; a document that does not decode is corrupt data, a defect. */
export const decodeDocument =
  <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S) =>
  (document: unknown): Effect.Effect<S["Type"]> =>
    Effect.orDie(Schema.decodeUnknownEffect(schema)(document))

/** A lookup's answer: no document is none, one is decoded. */
export const optionally =
  <A>(decode: (document: unknown) => Effect.Effect<A>) =>
  (document: unknown): Effect.Effect<Option.Option<A>> =>
    document === null ? Effect.succeedNone : Effect.map(decode(document), Option.some)
