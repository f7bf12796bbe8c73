import { DateTime, Effect } from "effect"
import { assembled } from "../../model/assembled.ts"
import { type AuditAction, type AuditActor, AuditEntry, type AuditTarget } from "../../model/audit.ts"
import type { Principal } from "../../model/principal.ts"
import { CurrentOrganization, CurrentRequestId, CurrentRequestKey } from "../../model/request.ts"
import { IdGenerator } from "../../ports/id-generator.ts"

export const auditActorOf = (principal: Principal): AuditActor => {
  switch (principal._tag) {
    case "Member":
      return { kind: "member", id: principal.member.id }
    case "Master":
      return { kind: "master" }
    case "OpenLocal":
      return { kind: "open" }
    case "Scim":
      return { kind: "scim", id: principal.tokenId }
    case "ApiKey":
      return { kind: "api_key", id: principal.keyId }
  }
}

/**
 * Stamps an entry of what `actor` did now, in the request being served; it is made once its target
 * is known (a store may allocate the target's id in the write itself).
 */
export const auditEntryFor = Effect.fnUntraced(function* (actor: AuditActor, action: AuditAction) {
  const requestId = yield* CurrentRequestId
  const requestKey = yield* CurrentRequestKey
  const organizationId = yield* CurrentOrganization
  const id = yield* (yield* IdGenerator).next("auditEntry")
  const at = yield* DateTime.now
  return (target: AuditTarget, changes: Record<string, readonly [unknown, unknown]>) =>
    assembled(AuditEntry, {
      id,
      at,
      action,
      actor,
      target,
      changes,
      ...(requestId === undefined ? {} : { requestId }),
      ...(requestKey === undefined ? {} : { requestKey }),
      organizationId
    })
})

/** An entry for what `actor` did to `target` now, in the request being served. */
export const newAuditEntry = (
  actor: AuditActor,
  action: AuditAction,
  target: AuditTarget,
  changes: Record<string, readonly [unknown, unknown]> = {}
) => Effect.map(auditEntryFor(actor, action), (entryOf) => entryOf(target, changes))

/** The entry of a change to the fields in `changes`; none when none of them changed. */
export const auditEntryOfChanges = (
  actor: AuditActor,
  action: AuditAction,
  target: AuditTarget,
  changes: Record<string, readonly [unknown, unknown]>
) =>
  Object.keys(changes).length === 0
    ? Effect.succeed(undefined)
    : newAuditEntry(actor, action, target, changes)
