import { assert, describe, it } from "@effect/vitest"
import { Cause, DateTime, Effect, Exit, Option, Redacted } from "effect"
import {
  authenticate,
  exchangeSsoCode,
  OrganizationStore,
  SecretBox,
  SecretsKeyRequired,
  SsoConnectionId,
  SsoConnectionRecord,
  SsoConnectionStore,
  SsoLoginStore,
  SsoRefused,
  startSso,
  updateOrganization,
  updateSsoConnection
} from "../../core/index.ts"
import { newAuditEntry } from "../../core/steps/audit/new-audit-entry.ts"
import { master, refusal } from "../support/roster.ts"
import { acmeSso, oidcCallback, outcomeOf, start } from "../support/sso-sign-in.ts"
import { provideSso, returnUrl } from "../support/sso-unit.ts"

const alice = { sub: "alice-at-idp", email: "alice@acme.example" }

const reasonOf = (error: unknown) => {
  assert.instanceOf(error, SsoRefused)
  return (error as SsoRefused).reason
}

describe("single sign-on while the store changes", () => {
  it.effect("a console session under a second-factor requirement counts the provider's factors", () =>
    Effect.gen(function* () {
      const { inAcme } = yield* acmeSso
      yield* inAcme(updateOrganization(master, { requireMfa: true }))
      const { session } = (yield* outcomeOf(
        yield* oidcCallback(yield* start({ organization: "acme" }), alice)
      )) as {
        session: { token: Redacted.Redacted<string> }
      }
      const principal = yield* authenticate(Option.some(session.token))
      assert.strictEqual(principal._tag, "Member")
      assert.isFalse(principal._tag === "Member" && principal.mfaPending === true)
    }).pipe(provideSso())
  )

  it.effect("a sign-in taken by another request meanwhile completes nothing", () =>
    Effect.gen(function* () {
      yield* acmeSso
      const store = yield* SsoLoginStore
      const started = yield* start({ organization: "acme" })
      const raced = SsoLoginStore.of({ ...store, take: () => Effect.succeed(Option.none()) })
      const refused = yield* refusal(
        oidcCallback(started, alice).pipe(Effect.provideService(SsoLoginStore, raced))
      )
      assert.strictEqual(reasonOf(refused), "state")
    }).pipe(provideSso())
  )

  it.effect("a code exchanged once its organisation is gone signs nobody in", () =>
    Effect.gen(function* () {
      yield* acmeSso
      const finished = yield* oidcCallback(
        yield* start({ organization: "acme", returnTo: `${returnUrl}/x` }),
        alice
      )
      const { code } = (yield* outcomeOf(finished)) as { code: Redacted.Redacted<string> }
      const organizations = yield* OrganizationStore
      const gone = OrganizationStore.of({ ...organizations, findById: () => Effect.succeed(Option.none()) })
      const refused = yield* refusal(
        exchangeSsoCode(code, "192.0.2.1").pipe(Effect.provideService(OrganizationStore, gone))
      )
      assert.strictEqual(reasonOf(refused), "inactive")
    }).pipe(provideSso())
  )

  it.effect("a new client secret is refused where the deployment lost its secrets key", () =>
    Effect.gen(function* () {
      const { oidc, inAcme } = yield* acmeSso
      const box = yield* SecretBox
      const keyless = SecretBox.of({ ...box, sealing: false })
      const refused = yield* inAcme(
        refusal(
          updateSsoConnection(master, oidc.id, { clientSecret: Redacted.make("another") }).pipe(
            Effect.provideService(SecretBox, keyless)
          )
        )
      )
      assert.instanceOf(refused, SecretsKeyRequired)
      const renamed = yield* inAcme(
        updateSsoConnection(master, oidc.id, { name: "Renamed" }).pipe(
          Effect.provideService(SecretBox, keyless)
        )
      )
      assert.strictEqual(renamed.name, "Renamed", "a change without a secret needs no key")
    }).pipe(provideSso())
  )

  it.effect("a connection kept without a secret is a defect that names it, never a sign-in", () =>
    Effect.gen(function* () {
      const { inAcme, organization } = yield* acmeSso
      const now = yield* DateTime.now
      const broken = new SsoConnectionRecord({
        id: SsoConnectionId.make("sso-broken"),
        organizationId: organization.id,
        kind: "oidc",
        name: "Broken",
        status: "enabled",
        createdAt: now,
        updatedAt: now,
        oidc: null,
        saml: null,
        trustCeiling: null
      })
      const entry = yield* inAcme(
        newAuditEntry({ kind: "master" }, "sso.connection.created", { type: "sso_connection", id: broken.id })
      )
      yield* inAcme((yield* SsoConnectionStore).insert(broken, entry))
      const exit = yield* Effect.exit(startSso({ connection: broken.id }, "192.0.2.1"))
      assert.isTrue(Exit.isFailure(exit) && Cause.hasDies(exit.cause))
      assert.include(
        Exit.isFailure(exit) ? Cause.pretty(exit.cause) : "",
        "connection sso-broken has no secret"
      )
    }).pipe(provideSso())
  )
})
