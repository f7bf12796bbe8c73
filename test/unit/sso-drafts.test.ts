import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import {
  ConnectionInvalid,
  CurrentServiceUrls,
  createSsoConnection,
  IdpIncomplete,
  listSsoConnections,
  PermissionId,
  type SsoConnectionId,
  SsoConnectionStore,
  SsoRefused,
  serviceProviderMetadata,
  type UpdateSsoConnectionInput,
  updateSsoConnection
} from "../../core/index.ts"
import { assertUnrecorded, theEntryOf } from "../support/audit.ts"
import { actorWith, master, refusal } from "../support/roster.ts"
import { start } from "../support/sso-sign-in.ts"
import { acme, provideSso } from "../support/sso-unit.ts"

const atRoster = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.provideService(self, CurrentServiceUrls, { base: "https://roster.example" })

const stored = (id: SsoConnectionId) =>
  SsoConnectionStore.use((store) => store.findAnywhere(id)).pipe(Effect.map(Option.getOrThrow))

const byHand = {
  idpEntityId: "urn:idp",
  idpSsoUrl: "https://idp.example/saml",
  idpCertificate: "CERT:MIIdraft"
}

/** Acme, Ada there who may change its single sign-on, and a draft she made. */
const acmeWithDraft = Effect.gen(function* () {
  const world = yield* acme
  const { principal: admin } = yield* world.inAcme(actorWith("ada", ["team.read", "organization.sso.write"]))
  const { result: draft, entry } = yield* world.inAcme(
    theEntryOf(atRoster(createSsoConnection(admin, { kind: "saml", name: "Okta" })))
  )
  return { ...world, admin, draft, entry }
})

describe("a SAML connection made as a draft", () => {
  it.effect("answers at once Roster's SP values and serves its metadata, with no IdP yet", () =>
    Effect.gen(function* () {
      const { draft, entry } = yield* acmeWithDraft
      assert.strictEqual(draft.status, "draft")
      assert.strictEqual(draft.name, "Okta")
      assert.strictEqual(draft.spEntityId, `https://roster.example/api/v1/sso/saml/${draft.id}/metadata`)
      assert.strictEqual(draft.spMetadataUrl, draft.spEntityId)
      assert.strictEqual(draft.acsUrl, "https://roster.example/api/v1/sso/saml/acs")
      assert.match(draft.spCertificate ?? "", /^-----BEGIN CERTIFICATE-----\nQ{64}\n/u)
      assert.notProperty(draft, "idpEntityId")
      assert.notProperty(draft, "idpSsoUrl")
      const kept = yield* stored(draft.id)
      assert.deepStrictEqual(
        [kept.saml?.idpEntityId, kept.saml?.idpSsoUrl, kept.saml?.idpCertificates],
        [null, null, []]
      )
      assert.deepStrictEqual(entry.changes, {
        kind: [null, "saml"],
        name: [null, "Okta"],
        status: [null, "draft"]
      })
      const xml = yield* atRoster(serviceProviderMetadata(draft.id))
      assert.include(xml, `entityID="${draft.spEntityId}"`)
    }).pipe(provideSso())
  )

  it.effect("signs nobody in, by its id or its organisation, as a disabled connection", () =>
    Effect.gen(function* () {
      const { draft } = yield* acmeWithDraft
      for (const input of [{ connection: draft.id }, { organization: "acme" }]) {
        const refused = yield* refusal(start(input))
        assert.instanceOf(refused, SsoRefused)
        assert.strictEqual((refused as SsoRefused).reason, "connection")
      }
    }).pipe(provideSso())
  )

  it.effect("refuses an IdP set in part, or a status without an IdP, naming what lacks", () =>
    Effect.gen(function* () {
      const { draft, admin, inAcme } = yield* acmeWithDraft
      const attempts: ReadonlyArray<readonly [UpdateSsoConnectionInput, ReadonlyArray<string>]> = [
        [{ idpEntityId: "urn:idp" }, ["idpSsoUrl", "idpCertificate"]],
        [{ idpSsoUrl: byHand.idpSsoUrl, idpCertificate: byHand.idpCertificate }, ["idpEntityId"]],
        [{ status: "enabled" }, ["idpEntityId", "idpSsoUrl", "idpCertificate"]],
        [{ status: "disabled", name: "Later" }, ["idpEntityId", "idpSsoUrl", "idpCertificate"]]
      ]
      for (const [input, missing] of attempts) {
        const refused = yield* inAcme(assertUnrecorded(refusal(updateSsoConnection(admin, draft.id, input))))
        assert.instanceOf(refused, IdpIncomplete)
        assert.deepStrictEqual((refused as IdpIncomplete).missing, missing)
      }
      const foreign = yield* inAcme(refusal(updateSsoConnection(admin, draft.id, { clientId: "x" })))
      assert.instanceOf(foreign, ConnectionInvalid)
      const kept = yield* stored(draft.id)
      assert.deepStrictEqual([kept.status, kept.name, kept.saml?.idpEntityId], ["draft", "Okta", null])
    }).pipe(provideSso())
  )

  it.effect("stays a draft when only renamed", () =>
    Effect.gen(function* () {
      const { draft, admin, inAcme } = yield* acmeWithDraft
      const renamed = yield* inAcme(updateSsoConnection(admin, draft.id, { name: "Okta, soon" }))
      assert.deepStrictEqual([renamed.status, renamed.name], ["draft", "Okta, soon"])
    }).pipe(provideSso())
  )

  it.effect("is enabled by its whole IdP, by hand, which sets what it trusts and is recorded", () =>
    Effect.gen(function* () {
      const { draft, inAcme } = yield* acmeWithDraft
      const before = yield* stored(draft.id)
      const { principal: other } = yield* inAcme(actorWith("bea", ["organization.sso.write"]))
      const { result: set, entry } = yield* inAcme(
        theEntryOf(atRoster(updateSsoConnection(other, draft.id, byHand)))
      )
      assert.strictEqual(set.status, "enabled")
      assert.deepStrictEqual([set.idpEntityId, set.idpSsoUrl], [byHand.idpEntityId, byHand.idpSsoUrl])
      assert.deepStrictEqual([set.spEntityId, set.spCertificate], [draft.spEntityId, draft.spCertificate])
      const kept = yield* stored(draft.id)
      assert.deepStrictEqual(kept.saml?.idpCertificates, ["MIIdraft"])
      assert.strictEqual(kept.saml?.spPrivateKey, before.saml?.spPrivateKey, "the SP key is kept")
      assert.deepStrictEqual(kept.trustCeiling, [PermissionId.make(12)], "bea's, who set the IdP")
      assert.deepStrictEqual(entry.changes, {
        status: ["draft", "enabled"],
        idpEntityId: [null, byHand.idpEntityId],
        idpSsoUrl: [null, byHand.idpSsoUrl]
      })
      const started = yield* start({ organization: "acme" })
      assert.isTrue(started.redirectTo.includes(draft.id))
    }).pipe(provideSso())
  )

  it.effect("is set by the IdP's metadata, and may be left disabled", () =>
    Effect.gen(function* () {
      const { draft, inAcme } = yield* acmeWithDraft
      const metadata = JSON.stringify({
        entityId: "https://saml.example/idp",
        ssoUrl: "https://saml.example/sso",
        certificates: ["MIIone"]
      })
      const set = yield* inAcme(
        updateSsoConnection(master, draft.id, { idpMetadataXml: metadata, status: "disabled" })
      )
      assert.deepStrictEqual([set.status, set.idpEntityId], ["disabled", "https://saml.example/idp"])
      assert.isNull((yield* stored(draft.id)).trustCeiling, "the operator's: above every role")
      assert.deepStrictEqual(
        (yield* inAcme(listSsoConnections(master))).items.map(({ status }) => status),
        ["disabled"]
      )
    }).pipe(provideSso())
  )

  it.effect("refuses a whole IdP whose certificate or address cannot work, and stays a draft", () =>
    Effect.gen(function* () {
      const { draft, admin, inAcme } = yield* acmeWithDraft
      for (const [input, field] of [
        [{ ...byHand, idpCertificate: "not one" }, "idpCertificate"],
        [{ ...byHand, idpSsoUrl: "https://bad.example/sso" }, "idpSsoUrl"]
      ] as const) {
        const refused = yield* inAcme(refusal(updateSsoConnection(admin, draft.id, input)))
        assert.instanceOf(refused, ConnectionInvalid)
        assert.strictEqual((refused as ConnectionInvalid).field, field)
      }
      assert.strictEqual((yield* stored(draft.id)).status, "draft")
    }).pipe(provideSso())
  )
})

describe("a connection's IdP entity id", () => {
  it.effect("may be changed alone once its IdP is set, as what it trusts", () =>
    Effect.gen(function* () {
      const { draft, admin, inAcme } = yield* acmeWithDraft
      yield* inAcme(updateSsoConnection(master, draft.id, byHand))
      const changed = yield* inAcme(updateSsoConnection(admin, draft.id, { idpEntityId: "urn:idp:two" }))
      assert.deepStrictEqual([changed.status, changed.idpEntityId], ["enabled", "urn:idp:two"])
      assert.deepStrictEqual((yield* stored(draft.id)).trustCeiling, [
        PermissionId.make(1),
        PermissionId.make(12)
      ])
    }).pipe(provideSso())
  )
})
