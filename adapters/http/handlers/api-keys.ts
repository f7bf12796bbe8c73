import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import {
  ApiKeyCursor,
  createApiKey,
  getApiKey,
  listApiKeys,
  revokeApiKey,
  rotateApiKey,
  updateApiKey
} from "../../../core/index.ts"
import { RosterApi } from "../api/roster-api.ts"
import { asCaller } from "./as-caller.ts"
import { pageResponse } from "./page-response.ts"

export const ApiKeysHandlers = HttpApiBuilder.group(RosterApi, "apiKeys", (handlers) =>
  handlers
    .handle("createApiKey", ({ payload }) =>
      asCaller((actor) => createApiKey(actor, payload)).pipe(
        Effect.map(({ apiKey, key }) => ({ ...apiKey, key }))
      )
    )
    .handle("listApiKeys", ({ query: { cursor, ...rest }, request }) =>
      asCaller((actor) => listApiKeys(actor, cursor === undefined ? rest : { ...rest, after: cursor })).pipe(
        Effect.map(pageResponse(ApiKeyCursor, request))
      )
    )
    .handle("getApiKey", ({ params }) => asCaller((actor) => getApiKey(actor, params.id)))
    .handle("updateApiKey", ({ params, payload }) =>
      asCaller((actor) => updateApiKey(actor, params.id, payload))
    )
    .handle("revokeApiKey", ({ params }) => asCaller((actor) => revokeApiKey(actor, params.id)))
    .handle("rotateApiKey", ({ params, payload }) =>
      asCaller((actor) => rotateApiKey(actor, params.id, payload)).pipe(
        Effect.map(({ apiKey, key }) => ({ ...apiKey, key }))
      )
    )
)
