import { DateTime, Effect, Layer, Option } from "effect"
import type { Db, Filter } from "mongodb"
import { type AuditEntry, AuditLog, type AuditQuery } from "../../core/index.ts"
import { inOrganization } from "../organization-scope.ts"
import { type AuditEntryDocument, toAuditDocument, toAuditEntry } from "./audit-document.ts"
import { MongoDatabase, type MongoOptions } from "./database.ts"
import { attemptWrite, query } from "./driver.ts"
import { outboxClearing } from "./outbox-clearing.ts"
import { relayEntry, relayPending } from "./relay.ts"

const pageFilter = (organizationId: string, audit: AuditQuery): Filter<AuditEntryDocument> => {
  const conditions: Array<Filter<AuditEntryDocument>> = [{ organizationId }]
  if (audit.after !== undefined) {
    const at = DateTime.toDateUtc(audit.after.at)
    conditions.push({ $or: [{ at: { $lt: at } }, { at, _id: { $lt: audit.after.id } }] })
  }
  if (audit.action !== undefined) conditions.push({ action: audit.action })
  if (audit.actorId !== undefined) conditions.push({ "actor.id": audit.actorId })
  if (audit.targetId !== undefined) conditions.push({ "target.id": audit.targetId })
  if (audit.since !== undefined) conditions.push({ at: { $gte: DateTime.toDateUtc(audit.since) } })
  return { $and: conditions }
}

/** Appends an entry to the record; the same entry twice is one (its id is the key). */
export const appendEntry = (db: Db, entry: AuditEntry) =>
  attemptWrite(() =>
    db.collection<AuditEntryDocument>("audit_events").insertOne(toAuditDocument(entry))
  ).pipe(
    Effect.asVoid,
    Effect.catchTag("DuplicateKey", () => Effect.void)
  )

export const makeAuditLog = (clearingIntervalMs: number) =>
  Effect.gen(function* () {
    const db = yield* MongoDatabase
    const events = db.collection<AuditEntryDocument>("audit_events")
    const clearing = outboxClearing(db)
    yield* clearing.run(clearingIntervalMs)
    return AuditLog.of({
      record: (entry) => appendEntry(db, entry),
      // What the write left pending is moved at once (one write on the request's path); taking it off
      // the document can wait, and is redone at start if the process dies first.
      relay: (entry) => relayEntry(db, toAuditDocument(entry), clearing),
      // Rare (a retry after an unknown outcome): what a broken connection left pending is moved
      // first, so one look in the record finds the entry wherever the write left it.
      changeOfRequest: (requestKey) =>
        relayPending(db).pipe(
          Effect.andThen(query(() => events.findOne({ requestKey }))),
          Effect.flatMap((found) =>
            found === null ? Effect.succeed(Option.none()) : Effect.map(toAuditEntry(found), Option.some)
          )
        ),
      page: (audit, limit) =>
        inOrganization((organizationId) =>
          query(() =>
            events
              .find(pageFilter(organizationId, audit))
              .sort({ organizationId: 1, at: -1, _id: -1 })
              .limit(limit)
              .toArray()
          )
        ).pipe(Effect.flatMap((documents) => Effect.forEach(documents, toAuditEntry)))
    })
  })

export const auditLogLayer = (options: Pick<MongoOptions, "auditClearingIntervalMs">) =>
  Layer.effect(AuditLog, makeAuditLog(options.auditClearingIntervalMs ?? 1000))
