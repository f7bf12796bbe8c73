import { Schema } from "effect"
import { HttpServerResponse } from "effect/http"

/**
 * The JSON text of a value as `schema` encodes it, made once per value. The stores hand every
 * request the same member while it is unchanged (`toMember` makes each record's face once), and a
 * value is never changed in place, so its text holds for as long as the value lives.
 */
export const jsonOnce = <T extends object, E>(schema: Schema.Codec<T, E>) => {
  // As HttpApi encodes an answer here (`SuccessParseOptions`): what was checked when made is not checked again.
  const encode = Schema.encodeSync(schema, { disableChecks: true })
  const texts = new WeakMap<T, string>()
  return (value: T): string => {
    const made = texts.get(value)
    if (made !== undefined) return made
    const text = JSON.stringify(encode(value))
    texts.set(value, text)
    return text
  }
}

/** A JSON answer whose text is already made: HttpApi sends a response a handler returns as it is. */
export const jsonAnswer = (text: string, headers?: Record<string, string>) =>
  HttpServerResponse.text(text, {
    contentType: "application/json",
    ...(headers === undefined ? {} : { headers })
  })
