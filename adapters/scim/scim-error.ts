/** The SCIM error schema (RFC 7644 §3.12). */
export const errorSchema = "urn:ietf:params:scim:api:messages:2.0:Error"

export const scimMediaType = "application/scim+json; charset=utf-8"

export type ScimType =
  | "invalidFilter"
  | "tooMany"
  | "uniqueness"
  | "mutability"
  | "invalidSyntax"
  | "invalidPath"
  | "noTarget"
  | "invalidValue"
  | "invalidVers"
  | "sensitive"

/** A SCIM answer that is not a success: its status, what went wrong, and its SCIM kind, if any. */
export class ScimFailure {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: ScimType,
    readonly headers: Readonly<Record<string, string>> = {}
  ) {}
}

export const scimResponse = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: body === undefined ? headers : { "content-type": scimMediaType, ...headers }
  })

/** The error body, `status` as a string as RFC 7644 has it. */
export const failureResponse = (failure: ScimFailure) =>
  scimResponse(
    failure.status,
    {
      schemas: [errorSchema],
      status: String(failure.status),
      ...(failure.scimType === undefined ? {} : { scimType: failure.scimType }),
      detail: failure.detail
    },
    failure.headers
  )

export const badRequest = (scimType: ScimType, detail: string) => new ScimFailure(400, detail, scimType)
export const notFound = (detail: string) => new ScimFailure(404, detail)
