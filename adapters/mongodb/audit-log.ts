import { Context, DateTime, Effect, Layer, Option } from "effect"
import type { Db, Filter } from "mongodb"
import { type AuditEntry, AuditLog, type AuditQuery, EventSource, inOrganization } from "../../core/index.ts"
import {
  type AuditEntryDocument,
  AuditRelay,
  relayBatches,
  relayEntry,
  relayPending,
  toAuditDocument,
  toAuditEntry
} from "./consistency/index.ts"
import { MongoDatabase, type MongoOptions } from "./database.ts"
import { attemptWrite, query } from "./driver.ts"
import { makeEventSource } from "./event-source.ts"

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

export const makeAuditLog = (relayIntervalMs: number) =>
  Effect.gen(function* () {
    const db = yield* MongoDatabase
    const events = db.collection<AuditEntryDocument>("audit_events")
    const batches = relayBatches(db)
    yield* batches.run(relayIntervalMs)
    // What a write left pending goes with the next batch, off the request's path: a process that
    // stops first leaves it on its document, moved at the next start.
    const relay = AuditRelay.of((entry) => relayEntry(db, toAuditDocument(entry), batches))
    const log = AuditLog.of({
      record: (entry) => appendEntry(db, entry),
      // Rare (a retry after an unknown outcome): everything pending, wherever a write left it, is
      // moved first, so that one look in the record finds the entry.
      changeOfRequest: (requestKey) =>
        relayPending(db, batches).pipe(
          Effect.andThen(query(() => events.findOne({ requestKey }))),
          Effect.flatMap((found) =>
            found === null ? Effect.succeed(Option.none()) : Effect.map(toAuditEntry(found), Option.some)
          )
        ),
      // This process's own entries are moved first: what it changed, it shows at once.
      page: (audit, limit) =>
        inOrganization((organizationId) =>
          Effect.andThen(
            batches.flush,
            query(() =>
              events
                .find(pageFilter(organizationId, audit))
                .sort({ organizationId: 1, at: -1, _id: -1 })
                .limit(limit)
                .toArray()
            )
          )
        ).pipe(Effect.flatMap((documents) => Effect.forEach(documents, toAuditEntry)))
    })
    return Context.make(AuditLog, log).pipe(
      Context.add(AuditRelay, relay),
      Context.add(EventSource, makeEventSource(db, batches.flush))
    )
  })

/**
 * The audit log, the relay the stores move what they wrote with (see `relayingWhatTheyWrite`), and
 * the record read as the events' outbox.
 */
export const auditLogLayer = (options: Pick<MongoOptions, "auditRelayIntervalMs">) =>
  Layer.effectContext(makeAuditLog(options.auditRelayIntervalMs ?? 1000))
