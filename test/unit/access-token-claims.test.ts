import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Redacted } from "effect"
import { decodeJwt } from "jose"
import { inMemoryRoster } from "../../app/roster-layer.ts"
import {
  AccessTokenSigner,
  ApiKeyId,
  ensureSigningKey,
  Forbidden,
  issueAccessToken,
  NotFound,
  OrganizationId,
  type Principal,
  publishedSigningKeys,
  RoleId,
  revokeSigningKey,
  rotateSigningKey,
  ScimTokenId,
  SecretsKeyRequired,
  SigningKeyStore
} from "../../core/index.ts"
import { actorWith, fastScrypt, provideRoster, refusal } from "../support/roster.ts"

const secretsKeys = ["a secrets key of at least thirty-two characters"]
const issuer = "https://roster.example"
const withTokens = (options: Parameters<typeof provideRoster>[0] = {}) =>
  provideRoster({ secretsKeys, ...options })

const claimsOf = (actor: Principal) =>
  Effect.map(issueAccessToken(actor, issuer), (made) => ({
    ...made,
    claims: decodeJwt(Redacted.value(made.accessToken))
  }))

/** A member's principal as an embedding may make it: with the session's facts changed, or none. */
const ada = Effect.map(actorWith("ada", ["team.read"]), ({ principal }) => {
  if (principal._tag !== "Member") throw new Error("Expected a member")
  return principal
})

const apiKey = (expiresAt?: DateTime.Utc): Principal => ({
  _tag: "ApiKey",
  keyId: ApiKeyId.make("key_1"),
  name: "deploys",
  organizationId: OrganizationId.make("default"),
  permissionIds: [],
  ...(expiresAt === undefined ? {} : { expiresAt })
})

describe("an access token's claims", () => {
  it.effect("without a session: no sid, amr nor auth_time, and the configured lifetime", () =>
    Effect.gen(function* () {
      const { session: _, ...withoutSession } = yield* ada
      const { claims, expiresIn } = yield* claimsOf(withoutSession)
      for (const claim of ["sid", "amr", "auth_time"]) assert.notProperty(claims, claim)
      assert.strictEqual(claims.role, "ada-role")
      assert.strictEqual(claims.iss, issuer)
      assert.strictEqual(claims.aud, "roster")
      assert.strictEqual(expiresIn, 300)
      assert.strictEqual((claims.exp ?? 0) - (claims.iat ?? 0), 300)
    }).pipe(withTokens())
  )

  it.effect("a session proved by no recorded method: its sid and auth_time, no amr", () =>
    Effect.gen(function* () {
      const principal = yield* ada
      const session = principal.session
      if (session === undefined) throw new Error("Expected a session")
      const authTime = DateTime.makeUnsafe(1_700_000_000_500)
      const { claims } = yield* claimsOf({ ...principal, session: { ...session, amr: [], authTime } })
      assert.notProperty(claims, "amr")
      assert.strictEqual(claims.sid, session.id)
      assert.strictEqual(claims.auth_time, 1_700_000_000, "in whole seconds")
    }).pipe(withTokens())
  )

  it.effect("a member whose role is gone: no role claim", () =>
    Effect.gen(function* () {
      const principal = yield* ada
      const member = { ...principal.member, roleId: RoleId.make(987_654) }
      const { claims } = yield* claimsOf({ ...principal, member } as Principal)
      assert.notProperty(claims, "role")
      assert.strictEqual(claims.sub, principal.member.id)
    }).pipe(withTokens())
  )

  it.effect("an API key with no expiry lives the configured time; one past its expiry, none", () =>
    Effect.gen(function* () {
      const lasting = yield* claimsOf(apiKey())
      assert.strictEqual(lasting.expiresIn, 600)
      const now = yield* DateTime.now
      const ended = yield* claimsOf(apiKey(DateTime.subtractDuration(now, Duration.seconds(30))))
      assert.strictEqual(ended.expiresIn, 0)
      assert.strictEqual(ended.claims.exp, Math.floor(DateTime.toEpochMillis(now) / 1000) - 30)
    }).pipe(withTokens({ accessTokens: { seconds: 600 } }))
  )

  it.effect("are refused to a SCIM token, the master key too, with the reason no_token", () =>
    Effect.gen(function* () {
      const scim: Principal = {
        _tag: "Scim",
        tokenId: ScimTokenId.make("scim_1"),
        organizationId: OrganizationId.make("default"),
        permissionIds: []
      }
      assert.deepStrictEqual(yield* refusal(claimsOf(scim)), new Forbidden({ reason: "no_token" }))
      assert.deepStrictEqual(
        yield* refusal(claimsOf({ _tag: "Master" })),
        new Forbidden({ reason: "no_token" })
      )
    }).pipe(withTokens())
  )

  it.effect("are signed with no secrets key when no master key guards the deployment", () =>
    Effect.gen(function* () {
      const { claims } = yield* claimsOf(yield* ada)
      assert.deepStrictEqual(claims.permissions, ["team.read"])
    }).pipe(Effect.provide(inMemoryRoster({ scrypt: fastScrypt })))
  )

  it.effect("are refused when no key can be had to sign with", () =>
    Effect.gen(function* () {
      const principal = yield* ada
      const refused = yield* refusal(
        claimsOf(principal).pipe(
          Effect.updateService(SigningKeyStore, (store) => ({
            ...store,
            all: Effect.succeed([]),
            recent: Effect.succeed([]),
            add: () => Effect.succeed(false)
          }))
        )
      )
      assert.deepStrictEqual(refused, new SecretsKeyRequired())
    }).pipe(withTokens())
  )
})

/** Counts the key pairs made, and serves a stale, empty list of keys on the first `all` read. */
const racing = <A, E, R>(effect: Effect.Effect<A, E, R>) => {
  const seen = { pairs: 0, reads: 0 }
  const run = effect.pipe(
    Effect.updateService(SigningKeyStore, (store) => ({
      ...store,
      all: Effect.suspend(() => (seen.reads++ === 0 ? Effect.succeed([]) : store.all))
    })),
    Effect.updateService(AccessTokenSigner, (signer) => ({
      ...signer,
      newKeyPair: Effect.suspend(() => {
        seen.pairs++
        return signer.newKeyPair
      })
    }))
  )
  return Effect.map(run, (result) => ({ result, seen }))
}

describe("making signing keys", () => {
  it.effect("makes no key pair when the store holds a key already", () =>
    Effect.gen(function* () {
      const [first] = yield* ensureSigningKey
      let pairs = 0
      const again = yield* ensureSigningKey.pipe(
        Effect.updateService(AccessTokenSigner, (signer) => ({
          ...signer,
          newKeyPair: Effect.suspend(() => {
            pairs++
            return signer.newKeyPair
          })
        }))
      )
      assert.strictEqual(pairs, 0)
      assert.deepStrictEqual(
        again.map((key) => key.kid),
        [first?.kid]
      )
    }).pipe(withTokens())
  )

  it.effect("a rotation that lost its place to another instance's takes the next one", () =>
    Effect.gen(function* () {
      yield* ensureSigningKey
      const { result, seen } = yield* racing(rotateSigningKey(Duration.zero))
      assert.strictEqual(result.key.sequence, 2)
      assert.strictEqual(seen.pairs, 2, "the first pair was made for place 1, taken")
      assert.deepStrictEqual(
        (yield* (yield* SigningKeyStore).all).map((key) => key.sequence),
        [1, 2]
      )
    }).pipe(withTokens())
  )

  it.effect("signs after 360 s by default; a delay below zero is none", () =>
    Effect.gen(function* () {
      yield* ensureSigningKey
      const now = yield* DateTime.now
      const later = yield* rotateSigningKey()
      assert.strictEqual(DateTime.toEpochMillis(later.key.signsFrom) - DateTime.toEpochMillis(now), 360_000)
      const atOnce = yield* rotateSigningKey(Duration.seconds(-30))
      assert.strictEqual(DateTime.toEpochMillis(atOnce.key.signsFrom), DateTime.toEpochMillis(now))
      assert.deepStrictEqual(atOnce.retired, [])
    }).pipe(withTokens())
  )
})

describe("revoking a signing key", () => {
  it.effect("leaves the others signing, with no new key, when some are left", () =>
    Effect.gen(function* () {
      const [first] = yield* ensureSigningKey
      const { key } = yield* rotateSigningKey(Duration.zero)
      assert.deepStrictEqual(yield* revokeSigningKey(first?.kid ?? ""), {
        revoked: first?.kid ?? "",
        replacedBy: undefined
      })
      assert.deepStrictEqual(
        (yield* publishedSigningKeys).keys.map(({ kid }) => kid),
        [key.kid]
      )
    }).pipe(withTokens())
  )

  it.effect("refuses a kid no key has, naming it", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(
        yield* refusal(revokeSigningKey("no-such-kid")),
        new NotFound({ entity: "signing_key", id: "no-such-kid" })
      )
    }).pipe(withTokens())
  )

  it.effect("makes no replacement when another instance replaced the last key meanwhile", () =>
    Effect.gen(function* () {
      const [first] = yield* ensureSigningKey
      let adds = 0
      // The other instance's key takes the place this one tries for, just before it.
      const revoked = yield* revokeSigningKey(first?.kid ?? "").pipe(
        Effect.updateService(SigningKeyStore, (store) => ({
          ...store,
          add: (key) => (adds++ === 0 ? Effect.as(store.add(key), false) : store.add(key))
        }))
      )
      assert.deepStrictEqual(revoked, { revoked: first?.kid ?? "", replacedBy: undefined })
      assert.strictEqual(adds, 1)
      assert.lengthOf(yield* (yield* SigningKeyStore).all, 1)
    }).pipe(withTokens())
  )
})
