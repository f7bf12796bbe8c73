import type { AuditEntry, AuditTarget } from "../../../core/index.ts"

/** Where the current state of a change's target is read, for each kind of target a write answers with. */
const readPaths: Record<Exclude<AuditTarget["type"], "login">, (id: string) => string> = {
  member: (id) => `/api/v1/team/members/${encodeURIComponent(id)}`,
  role: (id) => `/api/v1/team/roles/${encodeURIComponent(id)}`,
  role_permission_detail: (id) => `/api/v1/team/role-permission-detail/${encodeURIComponent(id)}`,
  subscription: () => "/api/v1/pricing/subscription",
  organization: () => "/api/v1/organization",
  invitation: (id) => `/api/v1/team/invitations/${encodeURIComponent(id)}`,
  scim_token: () => "/api/v1/organization/scim-tokens",
  api_key: (id) => `/api/v1/organization/api-keys/${encodeURIComponent(id)}`,
  session: () => "/api/v1/auth/sessions",
  webhook: (id) => `/api/v1/organization/webhooks/${encodeURIComponent(id)}`
}

const doneMessage = JSON.stringify({
  message: "Done: an earlier attempt with this Idempotency-Key made the change, and it was not made again"
})

/**
 * The answer to a retry whose first attempt made its change (`entry`) without answering: for a
 * route that answers with a message, that it is done; otherwise what the route answers with, the
 * changed record, read as the caller through `route` (its current state: a later change shows).
 */
export const answerCompleted = (
  entry: AuditEntry,
  request: Request,
  answersMessage: boolean,
  route: (request: Request) => Promise<Response>
): Promise<Response> => {
  const { type, id } = entry.target
  if (answersMessage || type === "login") {
    return Promise.resolve(
      new Response(doneMessage, { status: 200, headers: { "content-type": "application/json" } })
    )
  }
  const headers = new Headers()
  const authorization = request.headers.get("authorization")
  if (authorization !== null) headers.set("authorization", authorization)
  // Read where the change was made: a new organisation is read in itself, the rest where the request acted.
  const organization = type === "organization" ? id : request.headers.get("roster-organization")
  if (organization !== null) headers.set("roster-organization", organization)
  return route(new Request(new URL(readPaths[type](id), request.url), { headers }))
}
