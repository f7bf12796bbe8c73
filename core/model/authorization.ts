import { Schema } from "effect"
import { PermissionRef } from "./permission.ts"

/**
 * One question: may `member` (an account id, any string; absent: the caller itself) do
 * `permission` in the caller's organisation?
 */
export const AuthorizationCheck = Schema.Struct({
  permission: PermissionRef,
  member: Schema.optionalKey(Schema.String)
})
export type AuthorizationCheck = typeof AuthorizationCheck.Type

/** At most a hundred questions in one request, so that one answer stays one bounded read. */
export const maxAuthorizationChecks = 100

export const AuthorizeInput = Schema.Struct({
  checks: Schema.Array(AuthorizationCheck).check(Schema.isBetweenLength(1, maxAuthorizationChecks))
})
export type AuthorizeInput = typeof AuthorizeInput.Type

/**
 * Why an answer is what it is, in order of precedence: no member of the organisation by that id
 * (another organisation's member included), a member who cannot act (the membership, the account
 * or the role inactive), a member or key not holding the permission, or holding it.
 */
export const AuthorizationReason = Schema.Literals(["not_member", "inactive", "not_granted", "granted"])
export type AuthorizationReason = typeof AuthorizationReason.Type

export const AuthorizationResult = Schema.Struct({
  /** The permission's key, however it was asked. */
  permission: Schema.String,
  /** The account asked about, the caller's own for a check about oneself; null for an API key. */
  member: Schema.NullOr(Schema.String),
  allowed: Schema.Boolean,
  reason: AuthorizationReason
})
export type AuthorizationResult = typeof AuthorizationResult.Type
