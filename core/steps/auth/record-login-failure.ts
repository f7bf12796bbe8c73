import { Effect, Option, Redacted } from "effect"
import type { AccountRecord } from "../../model/account.ts"
import type { OrganizationId } from "../../model/ids.ts"
import { loginKey } from "../../model/member.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { AuditLog } from "../../ports/audit-log.ts"
import { TokenIssuer } from "../../ports/token-issuer.ts"
import { newAuditEntry } from "../audit/new-audit-entry.ts"

/**
 * How a login that names no account is recorded: a short digest of it as compared, never the text,
 * since people type passwords into the username field. Equal names still read as equal entries.
 */
const unknownLoginOf = (login: string) =>
  TokenIssuer.use((tokens) => tokens.hashOf(Redacted.make(loginKey(login)))).pipe(
    Effect.map((digest) => `unknown:${digest.slice(0, 16)}`)
  )

/**
 * Records a failed or throttled login: the account it named (its member id when there is one, a
 * digest otherwise) and the client, in the organisation the login was for. An unauthenticated caller
 * acts as `open`. The password is never part of it.
 */
export const recordLoginFailure = Effect.fnUntraced(
  function* (
    action: "login.failed" | "login.throttled",
    login: string,
    found: Option.Option<AccountRecord>,
    client: string,
    _organizationId: Option.Option<OrganizationId>
  ) {
    const id = Option.isSome(found) ? found.value.id : yield* unknownLoginOf(login)
    const entry = yield* newAuditEntry(
      { kind: "open" },
      action,
      { type: "login", id },
      { client: [null, client] }
    )
    yield* (yield* AuditLog).record(entry)
  },
  (effect, _action, _login, _found, _client, organizationId) =>
    // A known account's failures are its organisation's to read; an unknown login's, the default one's.
    Option.isSome(organizationId)
      ? Effect.provideService(effect, CurrentOrganization, organizationId.value)
      : effect
)
