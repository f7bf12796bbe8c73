import { Effect, Layer, Option } from "effect"
import {
  inOrganization,
  type SealedSecret,
  SsoConnectionRecord,
  SsoConnectionStore
} from "../../core/index.ts"
import { RecordKit, refusalIsDefect } from "./records.ts"
import { resource } from "./resource.ts"
import { ssoIdentities } from "./sso-logins.ts"

/** Organisations' connections to identity providers, their client secrets and SP keys sealed. */
export const ssoConnections = resource({
  name: "sso_connections",
  schema: SsoConnectionRecord,
  key: "id",
  columns: ["id", "organizationId", "status", "createdAt"],
  indexes: [["organizationId", "createdAt"]],
  audit: "sso_connection",
  // Kept before connections recorded who set what they trust: nobody is known to have, so they let
  // in nobody new until someone sets it again.
  earlier: (stored) => ({ trustCeiling: [], ...stored }),
  sealed: {
    of: (record): ReadonlyArray<SealedSecret> => [
      ...(record.oidc === null ? [] : [record.oidc.clientSecret]),
      ...(record.saml === null ? [] : [record.saml.spPrivateKey])
    ],
    replace: (record, from, to) =>
      new SsoConnectionRecord({
        ...record,
        oidc:
          record.oidc !== null && record.oidc.clientSecret === from
            ? { ...record.oidc, clientSecret: to }
            : record.oidc,
        saml:
          record.saml !== null && record.saml.spPrivateKey === from
            ? { ...record.saml, spPrivateKey: to }
            : record.saml
      })
  }
})

export const ssoConnectionStoreLayer = Layer.effect(
  SsoConnectionStore,
  Effect.gen(function* () {
    const kit = yield* RecordKit
    const connections = yield* kit.open(ssoConnections)
    const identities = yield* kit.open(ssoIdentities)
    return SsoConnectionStore.of({
      insert: (record, entry) => refusalIsDefect(connections.insert(record, entry)),
      page: (after, limit) =>
        inOrganization((organizationId) =>
          connections.list(
            { organizationId },
            { by: ["createdAt"], ...(after === undefined ? {} : { after }), limit }
          )
        ),
      find: (id) => inOrganization((organizationId) => connections.find({ id, organizationId })),
      findAnywhere: (id) => connections.find({ id }),
      enabledOf: (organizationId) =>
        connections.list({ organizationId, status: "enabled" }, { by: ["createdAt"] }),
      replace: (record, entry) =>
        connections
          .modify({ id: record.id, organizationId: record.organizationId }, () => record, entry)
          .pipe(Effect.map(Option.map(({ after }) => after))),
      remove: (id, entry) =>
        Effect.gen(function* () {
          const removed = yield* inOrganization((organizationId) =>
            connections.remove({ id, organizationId }, entry)
          )
          if (Option.isSome(removed)) yield* identities.removeAll({ connectionId: id })
          return removed
        }),
      removeAll: inOrganization((organizationId) =>
        Effect.andThen(identities.removeAll({ organizationId }), connections.removeAll({ organizationId }))
      )
    })
  })
)
