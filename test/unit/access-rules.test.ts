import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import {
  ApiKeyId,
  addMember,
  authenticate,
  boundOrganizationOf,
  CurrentOrganization,
  createApiKey,
  createOrganization,
  type Forbidden,
  InvalidCredentials,
  listAuditEvents,
  listMembers,
  logIn,
  OrganizationId,
  PermissionId,
  type Principal,
  permissionIdOf,
  permissionsOf,
  ScimTokenId,
  scimTokenPermissions,
  updateOrganization
} from "../../core/index.ts"
import {
  failureOf,
  master,
  memberInput,
  password,
  provideRoster,
  readersAdaAndBob,
  roleWith
} from "../support/roster.ts"

const ids = (...n: Array<number>) => n.map((id) => PermissionId.make(id))
const organizationWrite = permissionIdOf("organization.write")
const acme = OrganizationId.make("org-acme")
const reasonOf = (error: unknown) => (error as Forbidden | undefined)?.reason

describe("what a caller holds", () => {
  it("a SCIM token is given its creator's permissions but organization.write, in order", () => {
    const creator = {
      _tag: "ApiKey",
      keyId: ApiKeyId.make("k"),
      name: "k",
      organizationId: acme,
      permissionIds: [...ids(8, 1), organizationWrite]
    } satisfies Principal
    assert.deepStrictEqual(scimTokenPermissions(creator), ids(1, 8))
  })

  it("a SCIM token never holds organization.write, whatever it was stored with", () => {
    const scim = {
      _tag: "Scim",
      tokenId: ScimTokenId.make("t"),
      organizationId: acme,
      permissionIds: [...ids(1), organizationWrite]
    } satisfies Principal
    assert.deepStrictEqual([...permissionsOf(scim)], ids(1))
  })

  it("a key's permission set is made once per array of ids, which is frozen so that it never goes stale", () => {
    const held = ids(1, 8)
    const key = {
      _tag: "ApiKey",
      keyId: ApiKeyId.make("k"),
      name: "k",
      organizationId: acme,
      permissionIds: held
    } satisfies Principal
    const set = permissionsOf(key)
    assert.deepStrictEqual([...set], ids(1, 8))
    assert.strictEqual(permissionsOf({ ...key }), set, "the same set for the same ids")
    assert.throws(() => held.push(PermissionId.make(2)))
    assert.isFalse(permissionsOf(key).has(PermissionId.make(2)))
    assert.deepStrictEqual([...permissionsOf({ ...key, permissionIds: ids(2) })], ids(2))
  })

  it("the operator and open local mode are bound to no organisation; every other caller to its own", () => {
    assert.isUndefined(boundOrganizationOf({ _tag: "Master" }))
    assert.isUndefined(boundOrganizationOf({ _tag: "OpenLocal" }))
    const key: Principal = {
      _tag: "ApiKey",
      keyId: ApiKeyId.make("k"),
      name: "k",
      organizationId: acme,
      permissionIds: []
    }
    assert.strictEqual(boundOrganizationOf(key), acme)
  })

  it.effect("an API key holds its own permissions only", () =>
    Effect.gen(function* () {
      const { key } = yield* createApiKey(master, { name: "Reader", permissions: ["team.read"] })
      const machine = yield* authenticate(Option.some(key))
      assert.lengthOf((yield* listMembers(machine)).items, 0)
      const refused = failureOf(yield* Effect.exit(listAuditEvents(machine)))
      assert.strictEqual(reasonOf(refused), "missing_permission")
    }).pipe(provideRoster())
  )

  it.effect("a session waiting for a second factor holds nothing until it has one", () =>
    Effect.gen(function* () {
      yield* readersAdaAndBob
      const session = yield* logIn({
        username: "ada",
        password: Redacted.make(password),
        client: "192.0.2.1"
      })
      yield* updateOrganization(master, { requireMfa: true })
      const waiting = yield* authenticate(Option.some("token" in session ? session.token : Redacted.make("")))
      assert.strictEqual(permissionsOf(waiting).size, 0)
      assert.strictEqual(reasonOf(failureOf(yield* Effect.exit(listMembers(waiting)))), "missing_permission")
    }).pipe(provideRoster())
  )
})

describe("signing in to a named organisation", () => {
  it.effect("signs in where the account is a member, and answers as a wrong password elsewhere", () =>
    Effect.gen(function* () {
      yield* readersAdaAndBob
      const other = yield* createOrganization(master, { name: "Acme", slug: "acme" })
      const inOther = Effect.provideService(CurrentOrganization, other.id)
      const staff = yield* inOther(roleWith("staff", ["team.read"]))
      yield* inOther(addMember(master, memberInput("cyril", staff.id)))
      const login = (username: string, organization: string) =>
        logIn({ username, password: Redacted.make(password), client: "192.0.2.1", organization })
      const there = yield* login("cyril", "acme")
      assert.isTrue("token" in there && there.organization.id === other.id)
      assert.instanceOf(failureOf(yield* Effect.exit(login("ada", "acme"))), InvalidCredentials)
      assert.instanceOf(failureOf(yield* Effect.exit(login("cyril", "default"))), InvalidCredentials)
      assert.instanceOf(failureOf(yield* Effect.exit(login("cyril", "nowhere"))), InvalidCredentials)
    }).pipe(provideRoster())
  )
})
