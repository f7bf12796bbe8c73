import { Effect, Schema } from "effect"
import { type ApiKey, ApiKeyPosition } from "../../model/api-key.ts"
import { defaultPageLimit, type Page, PageLimit, pageOf } from "../../model/page.ts"
import type { Principal } from "../../model/principal.ts"
import { requirePermission } from "../../policy/access.ts"
import { ApiKeyStore } from "../../ports/api-key-store.ts"

export const ListApiKeysInput = Schema.Struct({
  limit: Schema.optionalKey(PageLimit),
  /** Where the previous page ended; the first page when absent. */
  after: Schema.optionalKey(ApiKeyPosition)
})
export type ListApiKeysInput = typeof ListApiKeysInput.Type

/** One page of the organisation's API keys, oldest first: names, starts and dates, never the keys. */
export const listApiKeys = Effect.fnUntraced(function* (actor: Principal, input: ListApiKeysInput = {}) {
  yield* requirePermission(actor, "organization.api_keys.write")
  const limit = input.limit ?? defaultPageLimit
  const rows = yield* (yield* ApiKeyStore).page(input.after, limit + 1)
  const page: Page<ApiKey, ApiKeyPosition> = pageOf(rows, limit, ({ createdAt, id }) => ({ createdAt, id }))
  return page
})
