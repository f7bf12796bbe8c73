import { DateTime, Effect, Option } from "effect"
import { Forbidden, MfaRequired, SecretsKeyRequired } from "../../model/errors.ts"
import type { Principal } from "../../model/principal.ts"
import { owesSecondFactor } from "../../model/principal.ts"
import { permissionKeysOf } from "../../policy/access.ts"
import { signingKeyAt } from "../../policy/signing-keys.ts"
import { AccessTokenSigner } from "../../ports/access-token-signer.ts"
import { AuthSettings } from "../../ports/auth-settings.ts"
import { IdGenerator } from "../../ports/id-generator.ts"
import { RoleStore } from "../../ports/role-store.ts"
import { SecretBox } from "../../ports/secret-box.ts"
import { SigningKeyStore } from "../../ports/signing-key-store.ts"
import { currentOrganization } from "../../steps/organizations/current-organization.ts"
import { ensureSigningKey } from "../../steps/tokens/ensure-signing-key.ts"
import { accessTokenLifetime, defaultTokenAudience } from "../../steps/tokens/token-settings.ts"

/** Who a token is for, as its claims tell: a member's session, or an API key. */
const subjectOf = Effect.fnUntraced(function* (actor: Principal) {
  switch (actor._tag) {
    case "Member": {
      if (owesSecondFactor(actor)) return yield* new MfaRequired()
      const role = yield* (yield* RoleStore).findById(actor.member.roleId)
      const session = actor.session
      return {
        claims: {
          sub: actor.member.id,
          client_id: "roster",
          principal: "member",
          ...Option.match(role, { onNone: () => ({}), onSome: ({ roleKey }) => ({ role: roleKey }) }),
          ...(session === undefined
            ? {}
            : {
                sid: session.id,
                ...(session.amr.length === 0 ? {} : { amr: session.amr }),
                auth_time: Math.floor(DateTime.toEpochMillis(session.authTime) / 1000)
              })
        },
        endsAt: session?.expiresAt
      }
    }
    case "ApiKey":
      return {
        claims: { sub: actor.keyId, client_id: actor.keyId, principal: "api_key" },
        endsAt: actor.expiresAt
      }
    default:
      return yield* new Forbidden({ reason: "no_token" })
  }
})

const seconds = (instant: DateTime.Utc) => Math.floor(DateTime.toEpochMillis(instant) / 1000)

/**
 * A short-lived access token for the caller (`POST /auth/token`): a JWT in RFC 9068's profile that
 * a product verifies offline with the published keys. It tells what Roster knows now: who (a
 * member's session or an API key), where (the caller's organisation), the role, the permissions'
 * keys (those `GET /auth/me` lists), how and when the session's sign-in was proved; it lives the
 * configured lifetime and never past its session's or key's own end. Changes nothing. The master
 * key, the open mode and SCIM tokens are refused; so is a session owing its second factor, and,
 * with a master key, a deployment with no key to seal the signing keys under.
 */
export const issueAccessToken = Effect.fnUntraced(function* (actor: Principal, issuer: string) {
  const subject = yield* subjectOf(actor)
  const settings = yield* AuthSettings
  if (!(yield* SecretBox).sealing && Option.isSome(settings.masterKeyHash)) {
    return yield* new SecretsKeyRequired()
  }
  const organization = yield* currentOrganization
  const now = yield* DateTime.now
  const recent = yield* (yield* SigningKeyStore).recent
  const key = signingKeyAt(recent.length > 0 ? recent : yield* ensureSigningKey, now)
  if (key === undefined) return yield* new SecretsKeyRequired()
  const lifetime = accessTokenLifetime(settings)
  const planned = DateTime.addDuration(now, lifetime)
  const expires =
    subject.endsAt !== undefined && DateTime.isLessThan(subject.endsAt, planned) ? subject.endsAt : planned
  const claims = {
    iss: issuer,
    aud: settings.tokenAudience ?? defaultTokenAudience,
    ...subject.claims,
    org_id: organization.id,
    org_slug: organization.slug,
    permissions: yield* permissionKeysOf(actor),
    iat: seconds(now),
    exp: seconds(expires),
    jti: yield* (yield* IdGenerator).next("accessToken")
  }
  return {
    accessToken: yield* (yield* AccessTokenSigner).sign(claims, key),
    tokenType: "Bearer" as const,
    expiresIn: Math.max(0, claims.exp - claims.iat)
  }
})
