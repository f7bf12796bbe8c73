import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration, Effect, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { decodeJwt } from "jose"
import { inMemoryRoster } from "../../app/roster-layer.ts"
import {
  ApiKeyId,
  authenticate,
  declarePermission,
  Forbidden,
  grantPermission,
  issueAccessToken,
  OrganizationId,
  type Principal,
  RoleId,
  ScimTokenId,
  SecretsKeyRequired,
  SigningKeyStore
} from "../../core/index.ts"
import { actorWith, fastScrypt, logInAs, master, provideRoster, refusal } from "../support/roster.ts"

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
      // Away from the test clock's epoch, where an issue time of 0 would hide how the lifetime is counted.
      yield* TestClock.adjust("1 hour")
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
      assert.deepStrictEqual(
        { ...((yield* refusal(claimsOf(scim))) as object) },
        { ...new Forbidden({ reason: "no_token" }) }
      )
      assert.deepStrictEqual(
        { ...((yield* refusal(claimsOf({ _tag: "Master" }))) as object) },
        { ...new Forbidden({ reason: "no_token" }) }
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
      assert.deepStrictEqual({ ...(refused as object) }, { ...new SecretsKeyRequired() })
    }).pipe(withTokens())
  )

  it.effect("name the product's permissions after Roster's, by key, the first product id included", () =>
    Effect.gen(function* () {
      const { principal, role } = yield* actorWith("ada", ["team.read"])
      for (const key of ["projects.delete", "invoices:read", "reports.export"])
        yield* declarePermission(master, key, "")
      const permissionsAfter = Effect.fnUntraced(function* (key: string) {
        yield* grantPermission(master, { roleId: role.id, permissionId: key })
        const again = yield* authenticate(Option.some((yield* logInAs("ada")).token))
        return (yield* claimsOf(again)).claims.permissions
      })
      assert.deepStrictEqual(yield* permissionsAfter("projects.delete"), ["team.read", "projects.delete"])
      assert.deepStrictEqual(yield* permissionsAfter("reports.export"), [
        "team.read",
        "projects.delete",
        "reports.export"
      ])
      assert.deepStrictEqual(
        (yield* claimsOf(principal)).claims.permissions,
        ["team.read"],
        "as it signed in"
      )
    }).pipe(withTokens())
  )
})
