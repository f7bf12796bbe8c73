import { Effect, Layer, Option } from "effect"
import { inOrganization, ScimTokenRecord, ScimTokenStore, toScimToken } from "../../core/index.ts"
import { RecordKit, refusalIsDefect } from "./records.ts"
import { resource } from "./resource.ts"

/** SCIM tokens, found by their hash wherever they are; an organisation's listed oldest first. */
export const scimTokens = resource({
  name: "scim_tokens",
  schema: ScimTokenRecord,
  key: "id",
  columns: ["id", "organizationId", "tokenHash", "createdAt"],
  unique: [["tokenHash"]],
  indexes: [["organizationId", "createdAt"]],
  audit: "scim_token",
  // Tokens made before tokens had permissions of their own act with none.
  earlier: (stored) => ({ permissionIds: [], ...stored })
})

export const scimTokenStoreLayer = Layer.effect(
  ScimTokenStore,
  Effect.gen(function* () {
    const tokens = yield* (yield* RecordKit).open(scimTokens)
    return ScimTokenStore.of({
      insert: (token, entry) => refusalIsDefect(tokens.insert(token, entry)),
      list: inOrganization((organizationId) => tokens.list({ organizationId }, { by: ["createdAt"] })).pipe(
        Effect.map((found) => found.map(toScimToken))
      ),
      findByTokenHash: (tokenHash) => tokens.find({ tokenHash }, { hot: true }),
      revoke: (id, entry) =>
        inOrganization((organizationId) => tokens.remove({ id, organizationId }, entry)).pipe(
          Effect.map(Option.map(toScimToken))
        ),
      removeAll: inOrganization((organizationId) => tokens.removeAll({ organizationId }))
    })
  })
)
