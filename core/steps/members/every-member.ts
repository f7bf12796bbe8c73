import { Effect } from "effect"
import type { MemberRecord } from "../../model/member.ts"
import type { MemberFilter } from "../../model/member-query.ts"
import { memberPositionOf } from "../../model/member-query.ts"
import { MemberStore } from "../../ports/member-store.ts"

const batch = 500

/** Every member of the organisation matching `filter`, oldest first, read in pages. */
export const everyMember = Effect.fnUntraced(function* (filter: MemberFilter = {}) {
  const members = yield* MemberStore
  const all: Array<MemberRecord> = []
  for (;;) {
    const last = all.at(-1)
    const page = yield* members.page(
      last === undefined ? filter : { ...filter, after: memberPositionOf(last) },
      batch
    )
    all.push(...page)
    if (page.length < batch) return all
  }
})
