import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { inMemoryRoster } from "../../app/roster-layer.ts"
import {
  ConnectionInvalid,
  CurrentServiceUrls,
  createSsoConnection,
  deleteSsoConnection,
  type Forbidden,
  listSsoConnections,
  NotFound,
  readSsoConnection,
  SecretBox,
  SecretsKeyRequired,
  SsoConnectionId,
  SsoConnectionStore,
  serviceProviderMetadata,
  updateSsoConnection
} from "../../core/index.ts"
import { assertUnrecorded, theEntryOf } from "../support/audit.ts"
import { actorWith, fastScrypt, master, provideRoster, refusal } from "../support/roster.ts"
import { acme, clientSecret, fakeIdentityProviders, provideSso } from "../support/sso-unit.ts"

const provideOpenRoster = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.provide(self, inMemoryRoster({ scrypt: fastScrypt }))

const oidc = {
  kind: "oidc" as const,
  issuer: "https://idp.example",
  clientId: "roster",
  clientSecret: Redacted.make(clientSecret)
}
const metadata = JSON.stringify({
  entityId: "https://saml.example/idp",
  ssoUrl: "https://saml.example/sso",
  certificates: ["MIIfirst", "MIIsecond"]
})

/** Acme, and Ada there, who may change its single sign-on. */
const acmeWithAdmin = Effect.gen(function* () {
  const world = yield* acme
  const { principal } = yield* world.inAcme(actorWith("ada", ["organization.sso.write"]))
  return { ...world, admin: principal }
})

/** The connection as its store keeps it, secrets sealed. */
const stored = (id: SsoConnectionId) =>
  Effect.gen(function* () {
    return Option.getOrThrow(yield* (yield* SsoConnectionStore).findAnywhere(id))
  })

describe("making a single sign-on connection", () => {
  it.effect("to an OIDC provider: enabled, its secret sealed and never answered, recorded", () =>
    Effect.gen(function* () {
      const { inAcme, admin, organization } = yield* acmeWithAdmin
      yield* TestClock.adjust("1 minute")
      const { result: made, entry } = yield* inAcme(
        theEntryOf(
          createSsoConnection(admin, oidc).pipe(
            Effect.provideService(CurrentServiceUrls, { base: "https://roster.example" })
          )
        )
      )
      assert.strictEqual(made.kind, "oidc")
      assert.strictEqual(made.name, "OpenID Connect")
      assert.strictEqual(made.status, "enabled")
      assert.strictEqual(made.issuer, "https://idp.example")
      assert.strictEqual(made.clientId, "roster")
      assert.deepStrictEqual(made.scopes, ["openid", "email", "profile"])
      assert.strictEqual(DateTime.toEpochMillis(made.createdAt), 60_000)
      assert.deepStrictEqual(made.updatedAt, made.createdAt)
      assert.strictEqual(made.redirectUri, "https://roster.example/api/v1/sso/oidc/callback")
      assert.strictEqual(made.acsUrl, "https://roster.example/api/v1/sso/saml/acs")
      assert.strictEqual(made.spEntityId, `https://roster.example/api/v1/sso/saml/${made.id}/metadata`)
      assert.strictEqual(made.spMetadataUrl, made.spEntityId)
      assert.notProperty(made, "spCertificate")
      assert.notProperty(made, "idpEntityId")
      assert.notInclude(JSON.stringify(made), clientSecret)
      const kept = yield* stored(made.id)
      assert.strictEqual(kept.organizationId, organization.id)
      assert.isNull(kept.saml)
      assert.notStrictEqual(kept.oidc?.clientSecret, clientSecret, "sealed")
      const opened = yield* (yield* SecretBox).open(kept.oidc?.clientSecret ?? ("" as never))
      assert.strictEqual(Redacted.value(opened), clientSecret)
      assert.strictEqual(entry.action, "sso.connection.created")
      assert.deepStrictEqual(entry.target, { type: "sso_connection", id: made.id })
      assert.deepStrictEqual(entry.changes, {
        kind: [null, "oidc"],
        name: [null, "OpenID Connect"],
        status: [null, "enabled"],
        issuer: [null, "https://idp.example"],
        clientId: [null, "roster"],
        scopes: [null, ["openid", "email", "profile"]]
      })
      assert.notInclude(JSON.stringify(entry), clientSecret)
    }).pipe(provideSso())
  )

  it.effect("asks for the scopes named, openid always among them", () =>
    Effect.gen(function* () {
      const { inAcme, admin } = yield* acmeWithAdmin
      const named = yield* inAcme(
        createSsoConnection(admin, { ...oidc, name: "Okta", scopes: ["email", "groups"] })
      )
      assert.strictEqual(named.name, "Okta")
      assert.deepStrictEqual(named.scopes, ["openid", "email", "groups"])
      const withOpenid = yield* inAcme(createSsoConnection(admin, { ...oidc, scopes: ["email", "openid"] }))
      assert.deepStrictEqual(withOpenid.scopes, ["email", "openid"])
    }).pipe(provideSso())
  )

  it.effect("to a SAML IdP from its metadata: its certificates pinned, an SP key of its own", () =>
    Effect.gen(function* () {
      const { inAcme, admin } = yield* acmeWithAdmin
      const { result: made, entry } = yield* inAcme(
        theEntryOf(createSsoConnection(admin, { kind: "saml", idpMetadataXml: metadata }))
      )
      assert.strictEqual(made.name, "SAML")
      assert.strictEqual(made.idpEntityId, "https://saml.example/idp")
      assert.strictEqual(made.idpSsoUrl, "https://saml.example/sso")
      assert.notProperty(made, "issuer")
      assert.notProperty(made, "scopes")
      const certificate = `${"Q".repeat(70)}1`
      assert.strictEqual(
        made.spCertificate,
        `-----BEGIN CERTIFICATE-----\n${certificate.slice(0, 64)}\n${certificate.slice(64)}\n-----END CERTIFICATE-----\n`
      )
      const kept = yield* stored(made.id)
      assert.isNull(kept.oidc)
      assert.deepStrictEqual(kept.saml?.idpCertificates, ["MIIfirst", "MIIsecond"])
      assert.strictEqual(kept.saml?.spCertificate, certificate)
      const key = yield* (yield* SecretBox).open(kept.saml?.spPrivateKey ?? ("" as never))
      assert.strictEqual(Redacted.value(key), "sp-private-key-1")
      assert.notInclude(JSON.stringify(made), "sp-private-key")
      assert.deepStrictEqual(entry.changes, {
        kind: [null, "saml"],
        name: [null, "SAML"],
        status: [null, "enabled"],
        idpEntityId: [null, "https://saml.example/idp"],
        idpSsoUrl: [null, "https://saml.example/sso"]
      })
      const second = yield* stored(
        (yield* inAcme(createSsoConnection(admin, { kind: "saml", idpMetadataXml: metadata }))).id
      )
      assert.notStrictEqual(second.saml?.spCertificate, certificate, "each connection its own key")
    }).pipe(provideSso())
  )

  it.effect("to a SAML IdP from its entity id, sign-in URL and certificate", () =>
    Effect.gen(function* () {
      const { inAcme, admin } = yield* acmeWithAdmin
      const made = yield* inAcme(
        createSsoConnection(admin, {
          kind: "saml",
          name: "Corporate IdP",
          idpEntityId: "urn:idp",
          idpSsoUrl: "https://idp.example/saml",
          idpCertificate: "CERT:MIIthird"
        })
      )
      assert.strictEqual(made.name, "Corporate IdP")
      assert.strictEqual(made.idpEntityId, "urn:idp")
      assert.deepStrictEqual((yield* stored(made.id)).saml?.idpCertificates, ["MIIthird"])
    }).pipe(provideSso())
  )

  it.effect("refuses what cannot work, naming the field, and keeps nothing", () =>
    Effect.gen(function* () {
      const { inAcme, admin } = yield* acmeWithAdmin
      const attempts = [
        [{ ...oidc, issuer: "https://bad.example" }, "issuer"],
        [{ kind: "saml" as const, idpMetadataXml: "<not json/>" }, "idpMetadataXml"],
        [
          {
            kind: "saml" as const,
            idpMetadataXml: JSON.stringify({
              entityId: "e",
              ssoUrl: "https://bad.example",
              certificates: ["c"]
            })
          },
          "idpMetadataXml"
        ],
        [
          {
            kind: "saml" as const,
            idpMetadataXml: JSON.stringify({ entityId: "e", ssoUrl: "https://ok.example", certificates: [] })
          },
          "idpMetadataXml"
        ],
        [
          {
            kind: "saml" as const,
            idpEntityId: "e",
            idpSsoUrl: "https://bad.example",
            idpCertificate: "CERT:x"
          },
          "idpSsoUrl"
        ],
        [
          { kind: "saml" as const, idpEntityId: "e", idpSsoUrl: "https://ok.example", idpCertificate: "x" },
          "idpCertificate"
        ]
      ] as const
      for (const [input, field] of attempts) {
        const refused = yield* inAcme(assertUnrecorded(refusal(createSsoConnection(admin, input))))
        assert.instanceOf(refused, ConnectionInvalid)
        assert.strictEqual((refused as ConnectionInvalid).field, field)
      }
      const noCertificate = (yield* inAcme(
        refusal(
          createSsoConnection(admin, {
            kind: "saml",
            idpMetadataXml: JSON.stringify({ entityId: "e", ssoUrl: "https://ok.example", certificates: [] })
          })
        )
      )) as ConnectionInvalid
      assert.strictEqual(noCertificate.message, "The metadata names no signing certificate")
      assert.lengthOf((yield* inAcme(listSsoConnections(admin))).items, 0)
    }).pipe(provideSso())
  )

  it.effect("is for who may change single sign-on", () =>
    Effect.gen(function* () {
      const { inAcme, admin } = yield* acmeWithAdmin
      const { principal: owner } = yield* inAcme(actorWith("bob", ["team.read", "organization.write"]))
      const made = yield* inAcme(createSsoConnection(admin, oidc))
      const attempts: ReadonlyArray<
        Effect.Effect<unknown, unknown, Effect.Services<ReturnType<typeof updateSsoConnection>>>
      > = [
        createSsoConnection(owner, oidc),
        listSsoConnections(owner),
        readSsoConnection(owner, made.id),
        updateSsoConnection(owner, made.id, { status: "disabled" }),
        deleteSsoConnection(owner, made.id)
      ]
      for (const attempt of attempts) {
        const refused = (yield* inAcme(assertUnrecorded(refusal(attempt)))) as Forbidden
        assert.strictEqual(refused.reason, "missing_permission")
        assert.strictEqual(refused.permission, "organization.sso.write")
      }
      assert.strictEqual((yield* inAcme(readSsoConnection(admin, made.id))).status, "enabled")
      assert.lengthOf((yield* inAcme(listSsoConnections(admin))).items, 1)
    }).pipe(provideSso())
  )

  it.effect("refuses to keep a secret in clear where the deployment has a master key", () =>
    Effect.gen(function* () {
      const { inAcme } = yield* acme
      assert.instanceOf(yield* inAcme(refusal(createSsoConnection(master, oidc))), SecretsKeyRequired)
      assert.instanceOf(
        yield* inAcme(refusal(createSsoConnection(master, { kind: "saml", idpMetadataXml: metadata }))),
        SecretsKeyRequired
      )
    }).pipe(Effect.provide(fakeIdentityProviders()), provideRoster())
  )

  it.effect("keeps it in clear in open local mode, where there is no master key", () =>
    Effect.gen(function* () {
      const { inAcme } = yield* acme
      const made = yield* inAcme(createSsoConnection(master, oidc))
      assert.strictEqual(made.status, "enabled")
      const kept = (yield* stored(made.id)).oidc?.clientSecret ?? ("" as never)
      assert.strictEqual(Redacted.value(yield* (yield* SecretBox).open(kept)), clientSecret)
    }).pipe(Effect.provide(fakeIdentityProviders()), provideOpenRoster)
  )
})

describe("the organisation's connections", () => {
  it.effect("are listed oldest first, a page at a time, its own only; read one by one", () =>
    Effect.gen(function* () {
      const { inAcme, admin } = yield* acmeWithAdmin
      const first = yield* inAcme(createSsoConnection(admin, oidc))
      yield* TestClock.adjust("1 second")
      const second = yield* inAcme(createSsoConnection(admin, { kind: "saml", idpMetadataXml: metadata }))
      const elsewhere = yield* createSsoConnection(master, oidc)
      const all = yield* inAcme(listSsoConnections(admin))
      assert.deepStrictEqual(all.items, [first, second])
      assert.isTrue(Option.isNone(all.next))
      const page = yield* inAcme(listSsoConnections(admin, { limit: 1 }))
      assert.deepStrictEqual(page.items, [first])
      assert.deepStrictEqual(page.next, Option.some({ createdAt: first.createdAt, id: first.id }))
      const rest = yield* inAcme(
        listSsoConnections(admin, { after: { createdAt: first.createdAt, id: first.id } })
      )
      assert.deepStrictEqual(rest.items, [second])
      assert.deepStrictEqual(yield* inAcme(readSsoConnection(admin, second.id)), second)
      for (const attempt of [
        readSsoConnection(admin, elsewhere.id),
        updateSsoConnection(admin, elsewhere.id, { name: "Mine" }),
        deleteSsoConnection(admin, elsewhere.id)
      ]) {
        const refused = (yield* inAcme(refusal(attempt))) as NotFound
        assert.deepStrictEqual(
          [refused._tag, refused.entity, refused.id],
          ["NotFound", "sso_connection", elsewhere.id]
        )
      }
      assert.strictEqual((yield* readSsoConnection(master, elsewhere.id)).name, "OpenID Connect")
    }).pipe(provideSso())
  )

  it.effect("publish a SAML connection's SP metadata, with its own key; none for OIDC or an unknown id", () =>
    Effect.gen(function* () {
      const { inAcme, admin } = yield* acmeWithAdmin
      const saml = yield* inAcme(createSsoConnection(admin, { kind: "saml", idpMetadataXml: metadata }))
      const openid = yield* inAcme(createSsoConnection(admin, oidc))
      const xml = yield* serviceProviderMetadata(saml.id).pipe(
        Effect.provideService(CurrentServiceUrls, { base: "https://roster.example" })
      )
      assert.strictEqual(
        xml,
        `<EntityDescriptor entityID="https://roster.example/api/v1/sso/saml/${saml.id}/metadata" key="sp-private-key-1"/>`
      )
      for (const id of [openid.id, SsoConnectionId.make("sso-none")]) {
        const refused = (yield* refusal(serviceProviderMetadata(id))) as NotFound
        assert.deepStrictEqual([refused._tag, refused.entity, refused.id], ["NotFound", "sso_connection", id])
      }
    }).pipe(provideSso())
  )
})

describe("changing a connection", () => {
  it.effect("renames it, disables it, and records only what changed", () =>
    Effect.gen(function* () {
      const { inAcme, admin } = yield* acmeWithAdmin
      const made = yield* inAcme(createSsoConnection(admin, oidc))
      yield* TestClock.adjust("1 minute")
      const { result: changed, entry } = yield* inAcme(
        theEntryOf(updateSsoConnection(admin, made.id, { name: "Okta", status: "disabled" }))
      )
      assert.strictEqual(changed.name, "Okta")
      assert.strictEqual(changed.status, "disabled")
      assert.strictEqual(changed.clientId, "roster")
      assert.deepStrictEqual(changed.createdAt, made.createdAt)
      assert.strictEqual(DateTime.toEpochMillis(changed.updatedAt), 60_000)
      assert.strictEqual(entry.action, "sso.connection.updated")
      assert.deepStrictEqual(entry.target, { type: "sso_connection", id: made.id })
      assert.deepStrictEqual(entry.changes, {
        name: ["OpenID Connect", "Okta"],
        status: ["enabled", "disabled"]
      })
      assert.deepStrictEqual(yield* inAcme(readSsoConnection(admin, made.id)), changed)
      const again = yield* inAcme(updateSsoConnection(admin, made.id, { status: "enabled" }))
      assert.strictEqual(again.name, "Okta", "what is not named stays")
      assert.strictEqual(again.status, "enabled")
    }).pipe(provideSso())
  )

  it.effect(
    "of OIDC: its client, scopes and a new secret, sealed, recorded as changed without its value",
    () =>
      Effect.gen(function* () {
        const { inAcme, admin } = yield* acmeWithAdmin
        const made = yield* inAcme(createSsoConnection(admin, oidc))
        const before = yield* stored(made.id)
        const { result: changed, entry } = yield* inAcme(
          theEntryOf(
            updateSsoConnection(admin, made.id, {
              clientId: "roster-2",
              scopes: ["groups"],
              clientSecret: Redacted.make("a-new-secret")
            })
          )
        )
        assert.strictEqual(changed.clientId, "roster-2")
        assert.deepStrictEqual(changed.scopes, ["openid", "groups"])
        assert.strictEqual(changed.issuer, "https://idp.example")
        const kept = yield* stored(made.id)
        assert.notStrictEqual(kept.oidc?.clientSecret, before.oidc?.clientSecret)
        assert.strictEqual(
          Redacted.value(yield* (yield* SecretBox).open(kept.oidc?.clientSecret ?? ("" as never))),
          "a-new-secret"
        )
        assert.deepStrictEqual(entry.changes, {
          clientId: ["roster", "roster-2"],
          scopes: [
            ["openid", "email", "profile"],
            ["openid", "groups"]
          ],
          clientSecret: ["(sealed)", "(sealed)"]
        })
        assert.notInclude(JSON.stringify(entry), "a-new-secret")
        const { entry: renamed } = yield* inAcme(
          theEntryOf(updateSsoConnection(admin, made.id, { name: "Renamed" }))
        )
        assert.notProperty(renamed.changes, "clientSecret", "no secret named, none recorded")
        assert.deepStrictEqual(renamed.changes, { name: ["OpenID Connect", "Renamed"] }, "the scopes stay")
        assert.strictEqual((yield* stored(made.id)).oidc?.clientSecret, kept.oidc?.clientSecret)
      }).pipe(provideSso())
  )

  it.effect("of SAML: new metadata read as when made, or a new sign-in URL and certificate", () =>
    Effect.gen(function* () {
      const { inAcme, admin } = yield* acmeWithAdmin
      const made = yield* inAcme(createSsoConnection(admin, { kind: "saml", idpMetadataXml: metadata }))
      const before = yield* stored(made.id)
      const replaced = yield* inAcme(
        updateSsoConnection(admin, made.id, {
          idpMetadataXml: JSON.stringify({
            entityId: "urn:new",
            ssoUrl: "https://new.example/sso",
            certificates: ["MIInew"]
          })
        })
      )
      assert.strictEqual(replaced.idpEntityId, "urn:new")
      assert.strictEqual(replaced.idpSsoUrl, "https://new.example/sso")
      const kept = yield* stored(made.id)
      assert.deepStrictEqual(kept.saml?.idpCertificates, ["MIInew"])
      assert.strictEqual(kept.saml?.spPrivateKey, before.saml?.spPrivateKey, "its SP key stays")
      assert.strictEqual(kept.saml?.spCertificate, before.saml?.spCertificate)
      const { result: moved, entry } = yield* inAcme(
        theEntryOf(updateSsoConnection(admin, made.id, { idpSsoUrl: "https://moved.example/sso" }))
      )
      assert.strictEqual(moved.idpSsoUrl, "https://moved.example/sso")
      assert.deepStrictEqual(entry.changes, {
        idpSsoUrl: ["https://new.example/sso", "https://moved.example/sso"]
      })
      assert.deepStrictEqual(
        (yield* stored(made.id)).saml?.idpCertificates,
        ["MIInew"],
        "no certificate named, it stays"
      )
      yield* inAcme(updateSsoConnection(admin, made.id, { idpCertificate: "CERT:MIIrotated" }))
      const rotated = yield* stored(made.id)
      assert.deepStrictEqual(rotated.saml?.idpCertificates, ["MIIrotated"])
      assert.strictEqual(rotated.saml?.idpSsoUrl, "https://moved.example/sso")
      assert.strictEqual(rotated.saml?.idpEntityId, "urn:new")
    }).pipe(provideSso())
  )

  it.effect("refuses a field of the other protocol, or a setting that cannot work, changing nothing", () =>
    Effect.gen(function* () {
      const { inAcme, admin } = yield* acmeWithAdmin
      const openid = yield* inAcme(createSsoConnection(admin, oidc))
      const saml = yield* inAcme(createSsoConnection(admin, { kind: "saml", idpMetadataXml: metadata }))
      const attempts = [
        [
          openid.id,
          { idpMetadataXml: metadata },
          "idpMetadataXml",
          "An OIDC connection has no idpMetadataXml"
        ],
        [openid.id, { idpSsoUrl: "https://x.example" }, "idpSsoUrl", "An OIDC connection has no idpSsoUrl"],
        [
          openid.id,
          { idpCertificate: "CERT:x" },
          "idpCertificate",
          "An OIDC connection has no idpCertificate"
        ],
        [saml.id, { clientId: "x" }, "clientId", "An SAML connection has no clientId"],
        [
          saml.id,
          { clientSecret: Redacted.make("x") },
          "clientSecret",
          "An SAML connection has no clientSecret"
        ],
        [saml.id, { scopes: ["x"] }, "scopes", "An SAML connection has no scopes"],
        [saml.id, { idpSsoUrl: "https://bad.example" }, "idpSsoUrl", "Not an address to send browsers to"],
        [saml.id, { idpCertificate: "not one" }, "idpCertificate", "Not a certificate"],
        [saml.id, { idpMetadataXml: "<xml/>" }, "idpMetadataXml", "Not metadata"]
      ] as const
      for (const [id, input, field, message] of attempts) {
        const refused = (yield* inAcme(
          assertUnrecorded(refusal(updateSsoConnection(admin, id, { name: "New", ...input })))
        )) as ConnectionInvalid
        assert.deepStrictEqual(
          [refused._tag, refused.field, refused.message],
          ["ConnectionInvalid", field, message]
        )
      }
      assert.strictEqual((yield* inAcme(readSsoConnection(admin, openid.id))).name, "OpenID Connect")
      assert.strictEqual((yield* inAcme(readSsoConnection(admin, saml.id))).name, "SAML")
    }).pipe(provideSso())
  )

  it.effect("of one deleted meanwhile is NotFound, as is deleting it again meanwhile", () =>
    Effect.gen(function* () {
      const { inAcme, admin } = yield* acmeWithAdmin
      const store = yield* SsoConnectionStore
      /** The store, where another request deletes the connection just before this one writes. */
      const racing = SsoConnectionStore.of({
        ...store,
        replace: (connection, entry) =>
          Effect.andThen(store.remove(connection.id, entry), store.replace(connection, entry)),
        remove: (id, entry) => Effect.andThen(store.remove(id, entry), store.remove(id, entry))
      })
      const inRace = <A, E, R>(self: Effect.Effect<A, E, R>) =>
        inAcme(refusal(Effect.provideService(self, SsoConnectionStore, racing)))
      const changed = yield* inAcme(createSsoConnection(admin, oidc))
      const late = (yield* inRace(updateSsoConnection(admin, changed.id, { name: "Late" }))) as NotFound
      assert.deepStrictEqual([late._tag, late.entity, late.id], ["NotFound", "sso_connection", changed.id])
      const deleted = yield* inAcme(createSsoConnection(admin, oidc))
      const twice = (yield* inRace(deleteSsoConnection(admin, deleted.id))) as NotFound
      assert.deepStrictEqual([twice._tag, twice.entity, twice.id], ["NotFound", "sso_connection", deleted.id])
      assert.lengthOf((yield* inAcme(listSsoConnections(admin))).items, 0)
    }).pipe(provideSso())
  )
})

describe("deleting a connection", () => {
  it.effect("answers it, records its settings, and nobody reads it again", () =>
    Effect.gen(function* () {
      const { inAcme, admin } = yield* acmeWithAdmin
      const made = yield* inAcme(createSsoConnection(admin, oidc))
      const { result: removed, entry } = yield* inAcme(theEntryOf(deleteSsoConnection(admin, made.id)))
      assert.deepStrictEqual(removed, made)
      assert.strictEqual(entry.action, "sso.connection.deleted")
      assert.deepStrictEqual(entry.target, { type: "sso_connection", id: made.id })
      assert.deepStrictEqual(entry.changes, {
        kind: ["oidc", null],
        name: ["OpenID Connect", null],
        status: ["enabled", null],
        issuer: ["https://idp.example", null],
        clientId: ["roster", null],
        scopes: [["openid", "email", "profile"], null]
      })
      assert.instanceOf(yield* inAcme(refusal(readSsoConnection(admin, made.id))), NotFound)
      assert.instanceOf(yield* inAcme(refusal(deleteSsoConnection(admin, made.id))), NotFound)
      assert.lengthOf((yield* inAcme(listSsoConnections(admin))).items, 0)
    }).pipe(provideSso())
  )
})
