import { Schema, SchemaTransformation } from "effect"

// Controls (Cc), format characters (Cf: zero-width, bidirectional marks and overrides, soft
// hyphens, tags) and private-use characters (Co): invisible or meaningless in a list of names,
// they let one name pose as another.
const hiddenCharacters = /[\p{Cc}\p{Cf}\p{Co}]/u
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/**
 * The same refusal for JSON Schema readers, whose regular expressions may not know Unicode
 * properties: every such character of the Basic Multilingual Plane. Those beyond it (private-use
 * planes, tags) are refused as well; the published pattern does not list them.
 */
const hiddenInBmp =
  "\\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890\\u0891\\u08E2" +
  "\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uE000-\\uF8FF\\uFEFF\\uFFF9-\\uFFFB"

/** Text a person reads: no control, format or private-use characters, no broken UTF-16. */
export const isDisplayable = Schema.makeFilter(
  (text: string) =>
    (!hiddenCharacters.test(text) && !loneSurrogate.test(text)) ||
    "Expected no control, format (zero-width, bidirectional) or private-use characters, nor lone surrogates",
  { toJsonSchema: () => ({ pattern: `^[^${hiddenInBmp}]*$` }) }
)

/**
 * Stored text is in Normalization Form C: a name typed with a combining accent and one typed
 * precomposed are one name, for uniqueness and for search alike.
 */
export const nfc = SchemaTransformation.transform<string, string>({
  decode: (text) => text.normalize("NFC"),
  encode: (text) => text
})

/**
 * A checked string, decoded into NFC. The checks stand on the encoded side, where JSON Schema
 * readers see them (NFC never adds a character those checks refuse).
 */
export const inNfc = <S extends Schema.Codec<string, string>>(schema: S) => schema.pipe(Schema.decode(nfc))
