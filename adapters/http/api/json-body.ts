import type { Schema } from "effect"
import { HttpApiSchema } from "effect/http-api"

/**
 * A JSON request body accepted whatever the request's content type says: clients of the fixed
 * interface send `Content-Type: *\/*`, so the body is declared under `application/json` and `*\/*`.
 */
export const jsonBody = <S extends Schema.Top>(schema: S) =>
  [schema, schema.pipe(HttpApiSchema.asJson({ contentType: "*/*" }))] as const
