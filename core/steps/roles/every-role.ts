import { Effect } from "effect"
import type { Role } from "../../model/role.ts"
import { RoleStore } from "../../ports/role-store.ts"

const batch = 500

/** Every role of the organisation, by id, read in pages. */
export const everyRole = Effect.gen(function* () {
  const roles = yield* RoleStore
  const all: Array<Role> = []
  for (;;) {
    const page = yield* roles.page(all.at(-1)?.id, batch)
    all.push(...page)
    if (page.length < batch) return all
  }
})
