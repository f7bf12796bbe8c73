import { Effect, Layer, Option } from "effect"
import { type ScimTokenRecord, ScimTokenStore, syncInOrganization, toScimToken } from "../../core/index.ts"
import { MemoryAuditTrail } from "./audit-log.ts"

export const makeScimTokenStore = Effect.gen(function* () {
  const trail = yield* MemoryAuditTrail
  const byId = new Map<string, ScimTokenRecord>()
  const inOrganization = (organizationId: string) =>
    [...byId.values()].filter((token) => token.organizationId === organizationId)

  return ScimTokenStore.of({
    insert: (token, entry) =>
      Effect.sync(() => {
        byId.set(token.id, token)
        trail.append(entry)
      }),
    list: syncInOrganization((organizationId) =>
      inOrganization(organizationId)
        .sort(
          (a, b) => a.createdAt.epochMilliseconds - b.createdAt.epochMilliseconds || a.id.localeCompare(b.id)
        )
        .map(toScimToken)
    ),
    findByTokenHash: (tokenHash) =>
      Effect.sync(() =>
        Option.fromNullishOr([...byId.values()].find((token) => token.tokenHash === tokenHash))
      ),
    revoke: (id, entry) =>
      syncInOrganization((organizationId) => {
        const found = byId.get(id)
        if (found === undefined || found.organizationId !== organizationId) return Option.none()
        byId.delete(id)
        trail.append(entry)
        return Option.some(toScimToken(found))
      }),
    removeAll: syncInOrganization((organizationId) => {
      for (const token of inOrganization(organizationId)) byId.delete(token.id)
    })
  })
})

export const scimTokenStoreLayer = Layer.effect(ScimTokenStore, makeScimTokenStore)
