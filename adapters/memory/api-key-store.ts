import { DateTime, Effect, Layer, Option } from "effect"
import {
  ApiKeyRecord,
  ApiKeyStore,
  byCreation,
  isOlderThan,
  syncInOrganization,
  toApiKey
} from "../../core/index.ts"
import { MemoryAuditTrail } from "./audit-log.ts"

export const makeApiKeyStore = Effect.gen(function* () {
  const trail = yield* MemoryAuditTrail
  const byId = new Map<string, ApiKeyRecord>()
  const idByLookup = new Map<string, string>()
  const ofOrganization = (organizationId: string, id: string) =>
    Option.filter(Option.fromNullishOr(byId.get(id)), (key) => key.organizationId === organizationId)
  const change = (
    id: string,
    changed: (key: ApiKeyRecord) => ApiKeyRecord,
    entry: Parameters<typeof trail.append>[0]
  ) =>
    syncInOrganization((organizationId) =>
      Option.map(ofOrganization(organizationId, id), (key) => {
        const next = changed(key)
        byId.set(id, next)
        trail.append(entry)
        return toApiKey(next)
      })
    )
  const remove = (key: ApiKeyRecord) => {
    byId.delete(key.id)
    idByLookup.delete(key.lookup)
  }

  return ApiKeyStore.of({
    insert: (key, entry) =>
      Effect.sync(() => {
        byId.set(key.id, key)
        idByLookup.set(key.lookup, key.id)
        trail.append(entry)
      }),
    page: (after, limit) =>
      syncInOrganization((organizationId) =>
        [...byId.values()]
          .filter(
            (key) => key.organizationId === organizationId && (after === undefined || isOlderThan(after, key))
          )
          .sort(byCreation)
          .slice(0, limit)
          .map(toApiKey)
      ),
    find: (id) => syncInOrganization((organizationId) => ofOrganization(organizationId, id)),
    findByLookup: (lookup) => Effect.sync(() => Option.fromNullishOr(byId.get(idByLookup.get(lookup) ?? ""))),
    update: (id, changes, entry) =>
      change(id, (key) => new ApiKeyRecord({ ...key, ...changes }, { disableChecks: true }), entry),
    rotate: (id, rotation, entry) =>
      change(id, (key) => new ApiKeyRecord({ ...key, ...rotation }, { disableChecks: true }), entry),
    revoke: (id, entry) =>
      syncInOrganization((organizationId) =>
        Option.map(ofOrganization(organizationId, id), (key) => {
          remove(key)
          trail.append(entry)
          return toApiKey(key)
        })
      ),
    removeAll: syncInOrganization((organizationId) => {
      for (const key of [...byId.values()]) if (key.organizationId === organizationId) remove(key)
    }),
    noteUse: (id, at) =>
      Effect.sync(() => {
        const key = byId.get(id)
        if (key === undefined || (key.lastUsedAt !== null && !DateTime.isLessThan(key.lastUsedAt, at))) return
        byId.set(id, new ApiKeyRecord({ ...key, lastUsedAt: at }, { disableChecks: true }))
      })
  })
})

export const apiKeyStoreLayer = Layer.effect(ApiKeyStore, makeApiKeyStore)
