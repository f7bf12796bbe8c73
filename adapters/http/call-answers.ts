import { Effect, Redacted } from "effect"
import {
  type AuthorizationResult,
  type AuthorizeInput,
  authorize,
  issueAccessToken,
  maxAuthorizationChecks,
  type Principal
} from "../../core/index.ts"
import { Metrics } from "../metrics/recorder.ts"
import { originOfUrl } from "./edge/url-parts.ts"
import type { AnswerText } from "./read-answers.ts"

const noHeaders = {}

/**
 * The answers' JSON text, each distinct answer's made once (the core answers a check asked again
 * with the same answer). The fields are in `AuthorizationResult`'s order, each a string, null or a
 * boolean: as the schema encodes them.
 */
const resultsText = (results: ReadonlyArray<AuthorizationResult>) => {
  const made = new Map<AuthorizationResult, string>()
  const texts: Array<string> = []
  for (const result of results) {
    let text = made.get(result)
    if (text === undefined) {
      text = JSON.stringify(result)
      made.set(result, text)
    }
    texts.push(text)
  }
  return `{"results":[${texts.join(",")}]}`
}

/** Counts the answers, allowed and denied, when metrics are on. */
const counted = (results: ReadonlyArray<AuthorizationResult>) =>
  Effect.map(Metrics, (metrics): AnswerText => {
    if (metrics !== undefined) {
      let allowed = 0
      for (const result of results) if (result.allowed) allowed++
      metrics.authorizeChecks(true, allowed)
      metrics.authorizeChecks(false, results.length - allowed)
    }
    return { text: resultsText(results), headers: noHeaders }
  })

/** `POST /authorize`'s answer: the core's question asked as the caller, its answers counted. */
export const authorizeAnswer = (actor: Principal, input: AuthorizeInput) =>
  Effect.flatMap(authorize(actor, input), counted)

/**
 * The issuer access tokens name, and under which their keys are served: `ROSTER_PUBLIC_URL` as
 * configured (its path kept), else the request's own origin and the path Roster is mounted under.
 */
export const issuerFor = (url: string, mountPath: string, publicUrl: string | undefined) =>
  publicUrl ?? `${originOfUrl(url) ?? "http://localhost"}${mountPath}`

/** `POST /auth/token`'s answer: the caller's access token, naming `issuer`. */
export const accessTokenAnswer = (actor: Principal, issuer: string) =>
  Effect.map(
    issueAccessToken(actor, issuer),
    ({ accessToken, tokenType, expiresIn }): AnswerText => ({
      text: JSON.stringify({ accessToken: Redacted.value(accessToken), tokenType, expiresIn }),
      headers: noHeaders
    })
  )

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype

const isPermissionRef = (value: unknown) =>
  typeof value === "number"
    ? Number.isSafeInteger(value)
    : typeof value === "string" && value.length >= 1 && value.length <= 100

const isPlainCheck = (check: unknown) => {
  if (!isPlainObject(check)) return false
  let fields = 0
  for (const field in check) {
    fields++
    if (field !== "permission" && field !== "member") return false
  }
  const member = check.member
  return isPermissionRef(check.permission) && (fields === 1 || typeof member === "string")
}

/**
 * A body of checks that is plainly what `AuthorizeInput` accepts, as that schema decodes it (no
 * field more, none transformed); `undefined` for anything else, which the schema answers with what
 * is wrong. Decoding a hundred checks through the schema cost more than answering them.
 */
export const plainAuthorizeInput = (body: unknown): AuthorizeInput | undefined => {
  if (!isPlainObject(body)) return undefined
  for (const field in body) if (field !== "checks") return undefined
  const checks = body.checks
  if (!Array.isArray(checks) || checks.length < 1 || checks.length > maxAuthorizationChecks) return undefined
  for (const check of checks) if (!isPlainCheck(check)) return undefined
  return body as unknown as AuthorizeInput
}
