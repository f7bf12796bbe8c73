import { Schema } from "effect"

// C0 and C1 controls, and the marks that reorder how text is displayed (bidirectional overrides and
// isolates): invisible in a list of names, they let one name pose as another.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const hiddenCharacters = /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** Text a person reads: no control characters, no bidirectional controls, no broken UTF-16. */
export const isDisplayable = Schema.makeFilter(
  (text: string) =>
    (!hiddenCharacters.test(text) && !loneSurrogate.test(text)) ||
    "Expected no control characters, bidirectional controls or lone surrogates",
  {
    toJsonSchema: () => ({
      pattern: "^[^\\u0000-\\u001F\\u007F-\\u009F\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069]*$"
    })
  }
)
