import { DateTime, Effect, Layer, Option } from "effect"
import { ApiKeyRecord, ApiKeyStore, inOrganization, toApiKey } from "../../core/index.ts"
import { RecordKit, refusalIsDefect } from "./records.ts"
import { resource } from "./resource.ts"

/**
 * API keys, found by their lookup part wherever they are; an organisation's listed oldest first;
 * counted, in every organisation, by a permission their list names.
 */
export const apiKeys = resource({
  name: "api_keys",
  schema: ApiKeyRecord,
  key: "id",
  columns: ["id", "organizationId", "lookup", "createdAt", "permissions"],
  unique: [["lookup"]],
  indexes: [["organizationId", "createdAt"]],
  audit: "api_key"
})

export const apiKeyStoreLayer = Layer.effect(
  ApiKeyStore,
  Effect.gen(function* () {
    const keys = yield* (yield* RecordKit).open(apiKeys)
    const changed = (
      id: string,
      change: (key: ApiKeyRecord) => ApiKeyRecord,
      entry: Parameters<typeof keys.modify>[2]
    ) =>
      inOrganization((organizationId) => keys.modify({ id, organizationId }, change, entry)).pipe(
        Effect.map(Option.map(({ after }) => toApiKey(after)))
      )
    return ApiKeyStore.of({
      insert: (key, entry) => refusalIsDefect(keys.insert(key, entry)),
      page: (after, limit) =>
        inOrganization((organizationId) =>
          keys.list(
            { organizationId },
            { by: ["createdAt"], ...(after === undefined ? {} : { after }), limit }
          )
        ).pipe(Effect.map((found) => found.map(toApiKey))),
      find: (id) => inOrganization((organizationId) => keys.find({ id, organizationId })),
      findByLookup: (lookup) => keys.find({ lookup }, { hot: true }),
      update: (id, changes, entry) =>
        changed(id, (key) => new ApiKeyRecord({ ...key, ...changes }, { disableChecks: true }), entry),
      rotate: (id, rotation, entry) =>
        changed(id, (key) => new ApiKeyRecord({ ...key, ...rotation }, { disableChecks: true }), entry),
      revoke: (id, entry) =>
        inOrganization((organizationId) => keys.remove({ id, organizationId }, entry)).pipe(
          Effect.map(Option.map(toApiKey))
        ),
      removeAll: inOrganization((organizationId) => keys.removeAll({ organizationId })),
      countHolding: (permissionId) => keys.count({ permissions: { includes: permissionId } }),
      noteUse: (id, at) =>
        keys
          .modify({ id }, (key) =>
            key.lastUsedAt === null || DateTime.isLessThan(key.lastUsedAt, at)
              ? new ApiKeyRecord({ ...key, lastUsedAt: at }, { disableChecks: true })
              : undefined
          )
          .pipe(Effect.asVoid)
    })
  })
)
