import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import {
  addMember,
  createSsoConnection,
  type Forbidden,
  linkSsoIdentity,
  type MemberId,
  PermissionId,
  provisionUser,
  RoleId,
  type SsoConnectionId,
  SsoConnectionStore,
  SsoRefused,
  updateMember,
  updateSsoConnection
} from "../../core/index.ts"
import { actorWith, master, memberInput, refusal, roleWith } from "../support/roster.ts"
import { acmeSso, oidcCallback, outcomeOf, start } from "../support/sso-sign-in.ts"
import { clientSecret, provideSso } from "../support/sso-unit.ts"

const saml = (entityId: string) => ({
  kind: "saml" as const,
  idpMetadataXml: JSON.stringify({ entityId, ssoUrl: `${entityId}/sso`, certificates: ["MIIcert"] })
})
const oidcAt = (issuer: string) => ({
  kind: "oidc" as const,
  issuer,
  clientId: "roster",
  clientSecret: Redacted.make(clientSecret)
})

/** Signs in through `connection` as whom the provider proves: the member's id, or the refusal's reason. */
const signInThrough = (
  connection: SsoConnectionId,
  identity: { readonly sub: string; readonly email?: string }
) =>
  Effect.gen(function* () {
    const finished = yield* oidcCallback(yield* start({ connection }), identity)
    const outcome = yield* Effect.result(outcomeOf(finished))
    if (outcome._tag === "Success") {
      return (outcome.success as { session: { member: { id: MemberId } } }).session.member.id as string
    }
    assert.instanceOf(outcome.failure, SsoRefused)
    return (outcome.failure as SsoRefused).reason
  })

const kept = (id: SsoConnectionId) =>
  SsoConnectionStore.use((store) => store.find(id)).pipe(Effect.map(Option.getOrThrow))

describe("what a connection trusts", () => {
  it.effect("records who set it: none for the operator, else what the caller held", () =>
    Effect.gen(function* () {
      const { inAcme } = yield* acmeSso
      const byOperator = yield* inAcme(createSsoConnection(master, saml("https://a.example")))
      assert.isNull((yield* inAcme(kept(byOperator.id))).trustCeiling)
      const { principal: admin } = yield* inAcme(actorWith("admin", ["team.read", "organization.sso.write"]))
      const byAdmin = yield* inAcme(createSsoConnection(admin, saml("https://b.example")))
      assert.deepStrictEqual((yield* inAcme(kept(byAdmin.id))).trustCeiling, [
        PermissionId.make(1),
        PermissionId.make(12)
      ])
    }).pipe(provideSso())
  )

  it.effect("changes only for a caller covering every member linked through it; a rename needs nothing", () =>
    Effect.gen(function* () {
      const { inAcme, organization, memberRole } = yield* acmeSso
      const connection = yield* inAcme(createSsoConnection(master, saml("https://idp.example")))
      const carol = yield* inAcme(addMember(master, memberInput("carol", memberRole.id)))
      yield* inAcme(linkSsoIdentity(master, carol.id, { connectionId: connection.id, subject: "carol-sub" }))
      const { principal: reader } = yield* inAcme(
        actorWith("reader", ["team.read", "organization.sso.write"])
      )
      const swapped = yield* inAcme(
        updateSsoConnection(reader, connection.id, { idpCertificate: "CERT:mine" })
      )
      assert.strictEqual(swapped.id, connection.id, "carol's role is within the caller's")
      assert.deepStrictEqual((yield* inAcme(kept(connection.id))).trustCeiling, [
        PermissionId.make(1),
        PermissionId.make(12)
      ])
      const boss = yield* inAcme(addMember(master, memberInput("boss", organization.ownerRoleId ?? 0)))
      yield* inAcme(linkSsoIdentity(master, boss.id, { connectionId: connection.id, subject: "boss-sub" }))
      const before = yield* inAcme(kept(connection.id))
      for (const swap of [
        { idpCertificate: "CERT:attacker" },
        { idpSsoUrl: "https://attacker.example/sso" },
        {
          idpMetadataXml: JSON.stringify({ entityId: "x", ssoUrl: "https://x.example", certificates: ["c"] })
        }
      ]) {
        const refused = (yield* inAcme(
          refusal(updateSsoConnection(reader, connection.id, swap))
        )) as Forbidden
        assert.strictEqual(refused.reason, "role_exceeds_own")
      }
      assert.deepStrictEqual(yield* inAcme(kept(connection.id)), before, "nothing changed")
      const renamed = yield* inAcme(
        updateSsoConnection(reader, connection.id, { name: "Renamed", status: "disabled" })
      )
      assert.strictEqual(renamed.name, "Renamed")
      yield* inAcme(updateSsoConnection(master, connection.id, { idpCertificate: "CERT:new" }))
      assert.isNull(
        (yield* inAcme(kept(connection.id))).trustCeiling,
        "the operator sets it above every role"
      )
    }).pipe(provideSso())
  )

  it.effect("covers an OIDC connection's client too, by the roles the linked members hold now", () =>
    Effect.gen(function* () {
      const { inAcme, oidc, memberRole } = yield* acmeSso
      const auditor = yield* inAcme(roleWith("auditor", ["team.read", "audit.read"]))
      const ann = yield* inAcme(addMember(master, memberInput("ann", auditor.id)))
      yield* inAcme(linkSsoIdentity(master, ann.id, { connectionId: oidc.id, subject: "ann-sub" }))
      const { principal: reader } = yield* inAcme(
        actorWith("reader", ["team.read", "organization.sso.write"])
      )
      const refused = (yield* inAcme(
        refusal(updateSsoConnection(reader, oidc.id, { clientId: "mine" }))
      )) as Forbidden
      assert.deepStrictEqual([refused.reason, refused.permissionIds], ["role_exceeds_own", [1, 8]])
      yield* inAcme(updateSsoConnection(reader, oidc.id, { scopes: ["openid", "email"] }))
      yield* inAcme(updateMember(master, ann.id, { roleId: memberRole.id }))
      const changed = yield* inAcme(updateSsoConnection(reader, oidc.id, { clientId: "mine" }))
      assert.strictEqual(changed.clientId, "mine")
    }).pipe(provideSso())
  )
})

describe("a sign-in through a connection set up below the owners", () => {
  it.effect("links a provisioned member, or makes one just in time, only within its maker's role", () =>
    Effect.gen(function* () {
      const { inAcme, organization } = yield* acmeSso
      const { principal: ssoOnly } = yield* inAcme(actorWith("sso-only", ["organization.sso.write"]))
      const narrow = yield* inAcme(createSsoConnection(ssoOnly, oidcAt("https://narrow.example")))
      assert.strictEqual(
        yield* signInThrough(narrow.id, { sub: "new-sub", email: "newcomer@acme.example" }),
        "above_connection",
        "the default role holds team.read, which its maker lacks"
      )
      const { principal: reader } = yield* inAcme(
        actorWith("reader", ["team.read", "organization.sso.write"])
      )
      const wide = yield* inAcme(createSsoConnection(reader, oidcAt("https://wide.example")))
      const joined = yield* signInThrough(wide.id, { sub: "new-sub", email: "newcomer@acme.example" })
      assert.notStrictEqual(joined, "above_connection")
      const olive = yield* inAcme(
        provisionUser(
          master,
          { userName: "olive", externalId: "olive-ext", email: "olive@acme.example" },
          Option.none()
        )
      )
      yield* inAcme(
        updateMember(master, olive.id as MemberId, { roleId: RoleId.make(organization.ownerRoleId ?? 0) })
      )
      assert.strictEqual(yield* signInThrough(wide.id, { sub: "olive-ext" }), "above_connection")
      assert.strictEqual(
        yield* signInThrough(wide.id, { sub: "x", email: "olive@acme.example" }),
        "above_connection"
      )
      const byOperator = yield* inAcme(createSsoConnection(master, oidcAt("https://owners.example")))
      assert.strictEqual(yield* signInThrough(byOperator.id, { sub: "olive-ext" }), olive.id)
    }).pipe(provideSso())
  )
})
