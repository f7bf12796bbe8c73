import { DateTime, Effect } from "effect"
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
 * An entry made of parts the core has checked already: an id from the generator, the acting
 * principal, a typed action, the changes between checked records. The class's constructor would
 * parse them all again, which cost an audited write ~10 µs of its ~57 in process: the parse itself,
 * and the request's other parses, slowed by sharing the parser's code with one more shape. So the
 * entry is made as the constructor makes one, from the class's prototype and its own fields
 * (`test/unit/assembled-audit-entry.test.ts` holds the two equal).
 */
export const assembledAuditEntry = (parts: ConstructorParameters<typeof AuditEntry>[0]): AuditEntry =>
  Object.assign(Object.create(AuditEntry.prototype) as AuditEntry, parts)

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
    assembledAuditEntry({
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
