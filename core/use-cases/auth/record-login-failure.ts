import { Effect, Option } from "effect"
import { loginKey, type MemberRecord } from "../../model/member.ts"
import { AuditLog } from "../../ports/audit-log.ts"
import { newAuditEntry } from "../audit/new-audit-entry.ts"

/**
 * Records a failed or throttled login: the account it named (its member id when there is one) and
 * the client. An unauthenticated caller acts as `open`. The password is never part of it.
 */
export const recordLoginFailure = Effect.fnUntraced(function* (
  action: "login.failed" | "login.throttled",
  login: string,
  found: Option.Option<MemberRecord>,
  client: string
) {
  const entry = yield* newAuditEntry(
    { kind: "open" },
    action,
    {
      type: "login",
      id: Option.match(found, { onNone: () => loginKey(login), onSome: (member) => member.id })
    },
    { client: [null, client] }
  )
  yield* (yield* AuditLog).record(entry)
})
