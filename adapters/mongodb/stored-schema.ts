import { Effect, Option, Schema, SchemaTransformation } from "effect"

/**
 * The one schema of a stored document or row: what is stored on its encoded side, the domain value on its
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
    document === null || document === undefined
      ? Effect.succeedNone
      : Effect.map(decode(document), Option.some)
