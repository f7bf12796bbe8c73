import { Schema } from "effect"

/** What a request answered, kept to answer its repeats with. */
// Stryker disable next-line StringLiteral: the identifier only names the class in JSON Schema documents, and no published one holds this class
export class StoredResponse extends Schema.Class<StoredResponse>("roster/StoredResponse")({
  status: Schema.Int,
  headers: Schema.Array(Schema.Struct({ name: Schema.String, value: Schema.String })),
  body: Schema.String
}) {}

/** Whom a key belongs to: keys of different callers never meet. */
export interface IdempotencyKey {
  readonly scope: string
  readonly key: string
}

/** How a request carrying an idempotency key may proceed. */
export type IdempotentStart =
  /** The first with this key (or the first since it expired): it runs. */
  | { readonly _tag: "Run" }
  /** A repeat of a finished request with the same body: answer what it answered. */
  | { readonly _tag: "Replay"; readonly response: StoredResponse }
  /** A repeat while the first still holds its lease. */
  | { readonly _tag: "InProgress" }
  /**
   * A repeat after the first stopped without an answer and its lease lapsed: this one holds the
   * claim now, and finds what the first changed, under the first claim's `requestKey`, before running.
   */
  | { readonly _tag: "Resume"; readonly requestKey: string }
  /** The same key with another request. */
  | { readonly _tag: "Reused" }
