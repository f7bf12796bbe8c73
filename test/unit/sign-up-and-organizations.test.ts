import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import {
  authenticate,
  CurrentOrganization,
  createOrganization,
  DuplicateEmail,
  DuplicateOrganizationSlug,
  DuplicateUsername,
  Forbidden,
  listOrganizations,
  listOwnOrganizations,
  OrganizationStore,
  RateLimited,
  SignupClosed,
  signUp,
  UnknownRole,
  updateOrganization
} from "../../core/index.ts"
import { actorWith, failureOf, master, password, provideRoster, roleWith } from "../support/roster.ts"

const signUpAs = (username: string, slug: string, client = "192.0.2.1", email = `${username}@example.com`) =>
  signUp({
    username,
    email,
    password: Redacted.make(password),
    organization: { name: `Org ${slug}`, slug },
    client
  })

describe("self-serve signup", () => {
  it.effect("is refused while the deployment keeps it closed", () =>
    Effect.gen(function* () {
      assert.instanceOf(failureOf(yield* Effect.exit(signUpAs("ada", "ada-co"))), SignupClosed)
      assert.isTrue(Option.isNone(yield* (yield* OrganizationStore).findByRef("ada-co")))
    }).pipe(provideRoster())
  )

  it.effect("makes an organisation owned by a new account, signed in there", () =>
    Effect.gen(function* () {
      const session = yield* signUpAs("ada", "ada-co")
      const caller = yield* authenticate(Option.some(session.token))
      assert.strictEqual(caller._tag, "Member")
      const organization = Option.getOrThrow(yield* (yield* OrganizationStore).findByRef("ada-co"))
      assert.strictEqual(organization.name, "Org ada-co")
      const own = yield* listOwnOrganizations(caller)
      assert.deepStrictEqual(
        own.map((membership) => [membership.organization.slug, membership.roleId]),
        [["ada-co", organization.ownerRoleId]]
      )
      assert.deepStrictEqual(yield* listOwnOrganizations(master), [], "the operator belongs to none")
    }).pipe(provideRoster({ signupOpen: true }))
  )

  it.effect("refuses a taken username, e-mail or slug before writing anything", () =>
    Effect.gen(function* () {
      yield* signUpAs("ada", "ada-co")
      assert.instanceOf(
        failureOf(yield* Effect.exit(signUpAs("ADA", "other-co", "192.0.2.1", "other@example.com"))),
        DuplicateUsername
      )
      assert.instanceOf(
        failureOf(
          yield* Effect.exit(
            signUp({
              username: "ada2",
              email: "ADA@example.com",
              password: Redacted.make(password),
              organization: { name: "X", slug: "x-co" },
              client: "192.0.2.1"
            })
          )
        ),
        DuplicateEmail
      )
      assert.instanceOf(failureOf(yield* Effect.exit(signUpAs("bob", "ada-co"))), DuplicateOrganizationSlug)
      const page = yield* listOrganizations(master)
      assert.deepStrictEqual(
        page.items.map((organization) => organization.slug),
        ["default", "ada-co"]
      )
    }).pipe(provideRoster({ signupOpen: true }))
  )

  it.effect("counts signups per client address, whether they succeed or not", () =>
    Effect.gen(function* () {
      for (let i = 0; i < 2; i++) yield* signUpAs(`user${i}`, `co-${i}`)
      const limited = failureOf(yield* Effect.exit(signUpAs("user9", "co-9")))
      assert.instanceOf(limited, RateLimited)
      assert.isAbove((limited as RateLimited).retryAfterSeconds, 0)
      yield* signUpAs("user8", "co-8", "198.51.100.7")
    }).pipe(provideRoster({ signupOpen: true, throttle: { maxSignupsPerClient: 2 } }))
  )
})

describe("organisations", () => {
  it.effect("lists them to the operator alone, a page at a time, filtered by a prefix", () =>
    Effect.gen(function* () {
      for (const slug of ["acme", "acorn", "beta"]) yield* createOrganization(master, { name: slug, slug })
      const first = yield* listOrganizations(master, { limit: 2 })
      assert.deepStrictEqual(
        first.items.map((organization) => organization.slug),
        ["default", "acme"]
      )
      const rest = yield* listOrganizations(master, { limit: 2, after: Option.getOrThrow(first.next) })
      assert.deepStrictEqual(
        rest.items.map((organization) => organization.slug),
        ["acorn", "beta"]
      )
      const prefixed = yield* listOrganizations(master, { q: "ac" })
      assert.deepStrictEqual(
        prefixed.items.map((organization) => organization.slug),
        ["acme", "acorn"]
      )
      const { principal } = yield* actorWith("ada", ["organization.write"])
      assert.instanceOf(failureOf(yield* Effect.exit(listOrganizations(principal))), Forbidden)
    }).pipe(provideRoster())
  )

  it.effect("a default role is one of the organisation's own, within the caller's ceiling", () =>
    Effect.gen(function* () {
      const reader = yield* roleWith("reader", ["team.read"])
      const admins = yield* roleWith("admins", ["team.read", "organization.write", "audit.read"])
      const acme = yield* createOrganization(master, { name: "Acme", slug: "acme" })
      const elsewhere = yield* roleWith("x", []).pipe(Effect.provideService(CurrentOrganization, acme.id))
      const { principal } = yield* actorWith("ada", ["team.read", "organization.write"])
      assert.instanceOf(
        failureOf(yield* Effect.exit(updateOrganization(principal, { defaultRoleId: elsewhere.id }))),
        UnknownRole
      )
      assert.instanceOf(
        failureOf(yield* Effect.exit(updateOrganization(principal, { defaultRoleId: admins.id }))),
        Forbidden
      )
      const updated = yield* updateOrganization(principal, { defaultRoleId: reader.id, name: "Renamed" })
      assert.deepStrictEqual([updated.defaultRoleId, updated.name], [reader.id, "Renamed"])
      const { principal: reader2 } = yield* actorWith("bob", ["team.read"])
      assert.instanceOf(failureOf(yield* Effect.exit(updateOrganization(reader2, { name: "No" }))), Forbidden)
    }).pipe(provideRoster())
  )
})
