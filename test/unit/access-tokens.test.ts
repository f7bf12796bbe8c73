import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose"
import {
  addMember,
  authenticate,
  createApiKey,
  ensureSigningKey,
  eventsOfEntry,
  isAnnounced,
  issueAccessToken,
  logOut,
  openLocalPrincipal,
  type Principal,
  permissionKeysOf,
  publishedSigningKeys,
  revokeSigningKey,
  rotateSigningKey,
  SigningKeyStore,
  updateOrganization
} from "../../core/index.ts"
import { theEntryOf } from "../support/audit.ts"
import {
  actorWith,
  logInAs,
  master,
  memberInput,
  provideRoster,
  refusal,
  roleWith
} from "../support/roster.ts"

const secretsKeys = ["a secrets key of at least thirty-two characters"]
const issuer = "https://roster.example/roster"
const withTokens = (options: Parameters<typeof provideRoster>[0] = {}) =>
  provideRoster({ secretsKeys, ...options })

/** The token's claims, verified against the key set Roster publishes now. */
const verified = Effect.fnUntraced(function* (token: Redacted.Redacted<string>, audience = "roster") {
  const keySet = createLocalJWKSet((yield* publishedSigningKeys) as never)
  const now = DateTime.toDateUtc(yield* DateTime.now)
  return yield* Effect.promise(() =>
    jwtVerify(Redacted.value(token), keySet, { issuer, audience, typ: "at+jwt", currentDate: now })
  )
})

const tokenOf = (actor: Principal) => Effect.map(issueAccessToken(actor, issuer), (made) => made.accessToken)

describe("an access token", () => {
  it.effect("carries who, where, the role, the permissions /auth/me lists, and the session's sign-in", () =>
    Effect.gen(function* () {
      const { principal, member, role } = yield* actorWith("ada", ["team.read", "billing.read"])
      const made = yield* issueAccessToken(principal, issuer)
      assert.strictEqual(made.tokenType, "Bearer")
      assert.strictEqual(made.expiresIn, 300)
      const { payload, protectedHeader } = yield* verified(made.accessToken)
      assert.strictEqual(protectedHeader.typ, "at+jwt")
      assert.strictEqual(protectedHeader.alg, "EdDSA")
      assert.isString(protectedHeader.kid)
      assert.strictEqual(payload.sub, member.id)
      assert.strictEqual(payload.client_id, "roster")
      assert.strictEqual(payload.principal, "member")
      assert.strictEqual(payload.org_id, "default")
      assert.strictEqual(payload.org_slug, "default")
      assert.strictEqual(payload.role, role.roleKey)
      assert.deepStrictEqual(payload.permissions, yield* permissionKeysOf(principal))
      assert.deepStrictEqual(payload.permissions, ["team.read", "billing.read"])
      assert.strictEqual(payload.sid, principal._tag === "Member" ? principal.session?.id : undefined)
      assert.deepStrictEqual(payload.amr, ["pwd"])
      assert.strictEqual(payload.exp, (payload.iat ?? 0) + 300)
      assert.strictEqual(payload.auth_time, payload.iat)
      const again = yield* verified(yield* tokenOf(principal))
      assert.notStrictEqual(again.payload.jti, payload.jti, "every token has a jti of its own")
    }).pipe(withTokens())
  )

  it.effect("lives the configured seconds, never past its session's end", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("ada", ["team.read"])
      const { payload } = yield* verified(yield* tokenOf(principal))
      assert.strictEqual((payload.exp ?? 0) - (payload.iat ?? 0), 90, "the session ends in 90 s")
    }).pipe(withTokens({ sessionTtl: Duration.seconds(90), accessTokens: { seconds: 600 } }))
  )

  it.effect("names the configured audience", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("ada", ["team.read"])
      const { payload } = yield* verified(yield* tokenOf(principal), "billing-api")
      assert.strictEqual(payload.aud, "billing-api")
      assert.strictEqual((payload.exp ?? 0) - (payload.iat ?? 0), 120)
    }).pipe(withTokens({ accessTokens: { seconds: 120, audience: "billing-api" } }))
  )

  it.effect("for an API key names the key, and ends no later than the key", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("ada", ["team.read", "organization.api_keys.write"])
      const { apiKey, key } = yield* createApiKey(principal, {
        name: "deploys",
        permissions: ["team.read"],
        expiresAt: DateTime.addDuration(yield* DateTime.now, Duration.seconds(60))
      })
      const keyPrincipal = yield* authenticate(Option.some(key))
      const { payload } = yield* verified(yield* tokenOf(keyPrincipal))
      assert.strictEqual(payload.sub, apiKey.id)
      assert.strictEqual(payload.client_id, apiKey.id)
      assert.strictEqual(payload.principal, "api_key")
      assert.deepStrictEqual(payload.permissions, ["team.read"])
      assert.strictEqual((payload.exp ?? 0) - (payload.iat ?? 0), 60)
      for (const claim of ["role", "sid", "amr", "auth_time"]) assert.notProperty(payload, claim)
    }).pipe(withTokens())
  )

  it.effect("is refused to the master key, the open mode, and a session owing its second factor", () =>
    Effect.gen(function* () {
      assert.strictEqual((yield* refusal(tokenOf(master)))?._tag, "Forbidden")
      assert.strictEqual((yield* refusal(tokenOf(openLocalPrincipal)))?._tag, "Forbidden")
      yield* updateOrganization(master, { requireMfa: true })
      const role = yield* roleWith("readers", ["team.read"])
      yield* addMember(master, memberInput("bob", role.id))
      const bob = yield* authenticate(Option.some((yield* logInAs("bob")).token))
      assert.strictEqual((yield* refusal(tokenOf(bob)))?._tag, "MfaRequired")
    }).pipe(withTokens())
  )

  it.effect("is refused with a master key and no secrets key to seal its signing keys under", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("ada", ["team.read"])
      assert.strictEqual((yield* refusal(tokenOf(principal)))?._tag, "SecretsKeyRequired")
      assert.lengthOf(yield* (yield* SigningKeyStore).all, 0, "no key was made")
    }).pipe(provideRoster())
  )
})

describe("signing keys", () => {
  it.effect("two instances making the first key at once make one", () =>
    Effect.gen(function* () {
      yield* Effect.all([ensureSigningKey, ensureSigningKey, ensureSigningKey], { concurrency: "unbounded" })
      const keys = yield* (yield* SigningKeyStore).all
      assert.lengthOf(keys, 1)
      assert.deepStrictEqual(
        (yield* publishedSigningKeys).keys.map(({ kid }) => kid),
        keys.map(({ kid }) => kid)
      )
    }).pipe(withTokens())
  )

  it.effect("publish no private part, only the public key with its kid, alg and use", () =>
    Effect.gen(function* () {
      yield* ensureSigningKey
      const [jwk] = (yield* publishedSigningKeys).keys
      assert.deepStrictEqual(Object.keys(jwk ?? {}).sort(), ["alg", "crv", "kid", "kty", "use", "x"])
      assert.strictEqual(jwk?.use, "sig")
      assert.strictEqual(jwk?.alg, "EdDSA")
      const stored = yield* (yield* SigningKeyStore).all
      assert.isTrue(stored[0]?.privateKey.startsWith("v1."), "the private key is kept sealed")
    }).pipe(withTokens())
  )

  it.effect(
    "a rotation publishes the new key at once, signs with it after the delay, and retires the old",
    () =>
      Effect.gen(function* () {
        const { principal } = yield* actorWith("ada", ["team.read"])
        const before = yield* tokenOf(principal)
        const first = decodeProtectedHeader(Redacted.value(before)).kid
        const { key } = yield* rotateSigningKey(Duration.seconds(360))
        const published = () => Effect.map(publishedSigningKeys, ({ keys }) => keys.map(({ kid }) => kid))
        assert.deepStrictEqual(yield* published(), [first, key.kid], "published at once")
        yield* TestClock.adjust(Duration.seconds(359))
        assert.strictEqual(decodeProtectedHeader(Redacted.value(yield* tokenOf(principal))).kid, first)
        yield* TestClock.adjust(Duration.seconds(11))
        const after = yield* tokenOf(principal)
        assert.strictEqual(decodeProtectedHeader(Redacted.value(after)).kid, key.kid, "the new key signs")
        yield* verified(after)
        assert.deepStrictEqual(
          yield* published(),
          [first, key.kid],
          "the old stays while its tokens may live"
        )
        yield* TestClock.adjust(Duration.seconds(300 + 60))
        assert.deepStrictEqual(yield* published(), [key.kid], "then it is retired")
        const next = yield* rotateSigningKey(Duration.zero)
        assert.deepStrictEqual(next.retired, [first], "and removed at the next rotation")
      }).pipe(withTokens())
  )

  it.effect("a revoked key leaves the set at once; with none left a new one signs", () =>
    Effect.gen(function* () {
      const { principal } = yield* actorWith("ada", ["team.read"])
      const first = decodeProtectedHeader(Redacted.value(yield* tokenOf(principal))).kid ?? ""
      const revoked = yield* revokeSigningKey(first)
      assert.isString(revoked.replacedBy)
      assert.deepStrictEqual(
        (yield* publishedSigningKeys).keys.map(({ kid }) => kid),
        [revoked.replacedBy]
      )
      yield* TestClock.adjust(Duration.seconds(11))
      const kid = decodeProtectedHeader(Redacted.value(yield* tokenOf(principal))).kid
      assert.strictEqual(kid, revoked.replacedBy)
      assert.strictEqual((yield* refusal(revokeSigningKey(first)))?._tag, "NotFound")
    }).pipe(withTokens())
  )
})

describe("what a product holding tokens hears", () => {
  it.effect("a logout is recorded as session.revoked, announced with the session's id", () =>
    Effect.gen(function* () {
      const { principal, member } = yield* actorWith("ada", ["team.read"])
      const { entry } = yield* theEntryOf(logOut(principal))
      assert.strictEqual(entry.action, "session.revoked")
      const sid = principal._tag === "Member" ? principal.session?.id : undefined
      assert.deepStrictEqual(entry.target, { type: "session", id: sid ?? "" })
      const [event] = eventsOfEntry(entry)
      assert.strictEqual(event?.type, "session.revoked")
      assert.deepStrictEqual(JSON.parse(event?.body ?? "{}").data, {
        organizationId: "default",
        accountId: member.id,
        sid
      })
      assert.isTrue(isAnnounced(entry.action))
    }).pipe(withTokens())
  )
})
