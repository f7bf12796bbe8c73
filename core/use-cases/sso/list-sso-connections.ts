import { Effect, Schema } from "effect"
import { defaultPageLimit, type Page, PageLimit, pageOf } from "../../model/page.ts"
import type { Principal } from "../../model/principal.ts"
import { type SsoConnection, SsoConnectionPosition } from "../../model/sso-connection.ts"
import { requirePermission } from "../../policy/access.ts"
import { SsoConnectionStore } from "../../ports/sso-connection-store.ts"
import { connectionView } from "../../steps/sso/connection-view.ts"

export const ListSsoConnectionsInput = Schema.Struct({
  limit: Schema.optionalKey(PageLimit),
  after: Schema.optionalKey(SsoConnectionPosition)
})
export type ListSsoConnectionsInput = typeof ListSsoConnectionsInput.Type

/** One page of the organisation's connections, oldest first (never their secrets). */
export const listSsoConnections = Effect.fnUntraced(function* (
  actor: Principal,
  input: ListSsoConnectionsInput = {}
) {
  yield* requirePermission(actor, "organization.sso.write")
  const limit = input.limit ?? defaultPageLimit
  const rows = yield* (yield* SsoConnectionStore).page(input.after, limit + 1)
  const views = yield* Effect.forEach(rows, connectionView)
  const page: Page<SsoConnection, SsoConnectionPosition> = pageOf(views, limit, ({ createdAt, id }) => ({
    createdAt,
    id
  }))
  return page
})
