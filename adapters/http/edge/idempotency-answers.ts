import { StoredResponse } from "../../../core/index.ts"
import * as Problem from "../problems.ts"
import { render } from "./guards.ts"

/** The answers the idempotency layer gives itself, rendered once at start. */
export const renderIdempotencyRefusals = async () => ({
  badKey: await render(
    new Problem.ValidationFailed({
      detail: "The request's headers are not valid: see errors",
      errors: [{ path: "headers.idempotency-key", message: "Expected 1 to 255 printable ASCII characters" }]
    })
  ),
  InProgress: await render(
    new Problem.RequestInProgress({
      detail: "The first request with this Idempotency-Key has not finished; retry shortly"
    }),
    { "retry-after": "1" }
  ),
  Reused: await render(
    new Problem.IdempotencyKeyReused({
      detail: "This Idempotency-Key was sent with another method, path or body; use a new key"
    })
  ),
  unavailable: await render(
    new Problem.Unavailable({
      detail: "The store did not answer; the request changed nothing and may be retried"
    })
  )
})

/** Answers that ran nothing are not kept: a repeat may run afresh. */
export const keeps = (status: number) => status < 500 && status !== 429

/** Whether a 503 says the change may have taken effect (`outcome_unknown`). */
export const mayHaveChanged = async (response: Response) =>
  response.status === 503 &&
  (
    (await response
      .clone()
      .json()
      .catch(() => undefined)) as { readonly code?: string } | undefined
  )?.code === "outcome_unknown"

/** A body with each of `secrets` (top-level fields) that it carries set to `null`. */
const withoutSecrets = (body: string, secrets: ReadonlyArray<string>) => {
  if (secrets.length === 0) return body
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return body
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return body
  const kept: Record<string, unknown> = { ...parsed }
  for (const field of secrets) if (field in kept) kept[field] = null
  return JSON.stringify(kept)
}

/**
 * An answer as kept for repeats: everything but its request id, which is each repeat's own, and
 * the secrets it showed once (`secrets`, see `ShownOnce`), which are kept as `null`.
 */
export const toStored = async (response: Response, secrets: ReadonlyArray<string> = []) => {
  const headers: Array<{ name: string; value: string }> = []
  response.headers.forEach((value, name) => {
    if (name !== "x-request-id" && name !== "content-length") headers.push({ name, value })
  })
  const body = withoutSecrets(await response.clone().text(), secrets)
  return new StoredResponse({ status: response.status, headers, body })
}

/** A kept answer, given again. */
export const replayed = (response: StoredResponse) => {
  const answer = new Response(response.body, {
    status: response.status,
    headers: response.headers.map(({ name, value }) => [name, value] as [string, string])
  })
  answer.headers.set("idempotent-replayed", "true")
  return answer
}
