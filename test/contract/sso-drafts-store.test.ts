import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import {
  AuditEntry,
  AuditEntryId,
  defaultOrganizationId,
  SealedSecret,
  SsoConnectionId,
  SsoConnectionRecord,
  SsoConnectionStore
} from "../../core/index.ts"
import { at } from "../support/contract.ts"
import { storeKinds } from "../support/stores.ts"

const entry = (id: string, action: AuditEntry["action"]) =>
  new AuditEntry({
    id: AuditEntryId.make(`aud-draft-${id}`),
    at: at(1),
    action,
    actor: { kind: "master" },
    target: { type: "sso_connection", id },
    changes: {},
    organizationId: defaultOrganizationId
  })

const spOnly = {
  idpEntityId: null,
  idpSsoUrl: null,
  idpCertificates: [],
  spPrivateKey: SealedSecret.make("v1.k.sp-key"),
  spCertificate: "MIIsp"
}

/** A SAML connection made before its IdP: its SP key, no IdP. */
const draft = new SsoConnectionRecord({
  id: SsoConnectionId.make("sso_contract_draft"),
  organizationId: defaultOrganizationId,
  kind: "saml",
  name: "Draft",
  status: "draft",
  createdAt: at(1),
  updatedAt: at(1),
  oidc: null,
  saml: spOnly,
  trustCeiling: []
})

describe.each(storeKinds)("a draft SAML connection on %s", (_, stores) => {
  it.effect("is kept whole without its IdP, is no enabled one, and is one once its IdP is set", () =>
    Effect.gen(function* () {
      const connections = yield* SsoConnectionStore
      yield* connections.insert(draft, entry("made", "sso.connection.created"))
      assert.deepStrictEqual(Option.getOrThrow(yield* connections.findAnywhere(draft.id)), draft)
      assert.deepStrictEqual(yield* connections.enabledOf(defaultOrganizationId), [])
      const ready = new SsoConnectionRecord({
        ...draft,
        status: "enabled",
        updatedAt: at(2),
        saml: {
          ...spOnly,
          idpEntityId: "urn:idp",
          idpSsoUrl: "https://idp.example/sso",
          idpCertificates: ["MIIidp"]
        },
        trustCeiling: null
      })
      yield* connections.replace(ready, entry("set", "sso.connection.updated"))
      assert.deepStrictEqual(Option.getOrThrow(yield* connections.find(draft.id)), ready)
      assert.deepStrictEqual(
        (yield* connections.enabledOf(defaultOrganizationId)).map(({ id }) => id),
        [draft.id]
      )
    }).pipe(Effect.provide(stores()))
  )
})
