import { DateTime, Effect, Layer, Schema } from "effect"
import type { Filter } from "mongodb"
import { Invitation, type InvitationQuery, InvitationStore, inOrganization } from "../../core/index.ts"
import { auditedWrites, bookkeeping } from "./consistency/index.ts"
import { MongoDatabase } from "./database.ts"
import { duplicateIsDefect, query, queryWrite } from "./driver.ts"
import { collectionSchema, decodeDocument, encodeDocument, optionally } from "./stored-schema.ts"

/** The key that is unique while an invitation is pending: one pending invitation per e-mail. */
const pendingKeyOf = (organizationId: string, email: string) => `${organizationId}/${email}`

/**
 * An invitation as stored. `pendingKey` is under a unique index: the organisation and e-mail while
 * pending, the invitation's own id once accepted or revoked (so it no longer stands in the way).
 */
const InvitationDocument = collectionSchema(
  Schema.Struct({
    _id: Schema.String,
    organizationId: Schema.String,
    email: Schema.String,
    roleId: Schema.Int,
    status: Schema.Literals(["pending", "accepted", "revoked"]),
    pendingKey: Schema.String,
    tokenHash: Schema.String,
    expiresAt: Schema.DateTimeUtcFromDate,
    createdAt: Schema.DateTimeUtcFromDate,
    outbox: bookkeeping.outbox
  }),
  Invitation,
  {
    decode: ({ _id, pendingKey: _key, outbox: _outbox, ...fields }) => ({ id: _id, ...fields }),
    encode: ({ id, ...fields }) => ({
      _id: id,
      pendingKey: pendingKeyOf(fields.organizationId, fields.email),
      ...fields
    })
  }
)
type InvitationDocument = typeof InvitationDocument.Encoded

const toInvitation = decodeDocument(InvitationDocument)
const toDocument = encodeDocument(InvitationDocument)
const optionalInvitation = optionally(toInvitation)

const pageFilter = (organizationId: string, invitations: InvitationQuery): Filter<InvitationDocument> => {
  const conditions: Array<Filter<InvitationDocument>> = [{ organizationId }]
  const now = DateTime.toDateUtc(invitations.now)
  if (invitations.after !== undefined) {
    const createdAt = DateTime.toDateUtc(invitations.after.createdAt)
    conditions.push({
      $or: [{ createdAt: { $gt: createdAt } }, { createdAt, _id: { $gt: invitations.after.id } }]
    })
  }
  if (invitations.email !== undefined) conditions.push({ email: invitations.email })
  if (invitations.status === "pending") conditions.push({ status: "pending", expiresAt: { $gt: now } })
  else if (invitations.status === "expired") conditions.push({ status: "pending", expiresAt: { $lte: now } })
  else if (invitations.status !== undefined) conditions.push({ status: invitations.status })
  return { $and: conditions }
}

/** Two re-invitations of one e-mail at once: each retries until its own is the one pending. */
const attemptsToReplace = 5

export const makeInvitationStore = Effect.gen(function* () {
  const writes = auditedWrites<InvitationDocument>(yield* MongoDatabase, "invitations")
  const invitations = writes.collection

  const closed = (status: "accepted" | "revoked", id: string) => ({ status, pendingKey: `${status}/${id}` })

  return InvitationStore.of({
    replace: (invitation, entry) => {
      const document = toDocument(invitation)
      const once = queryWrite(() =>
        invitations.deleteOne({ pendingKey: document.pendingKey, status: "pending" })
      ).pipe(Effect.andThen(writes.insert(document, entry)))
      return once.pipe(
        Effect.retry({ times: attemptsToReplace, while: (error) => error._tag === "DuplicateKey" }),
        Effect.catchTag("DuplicateKey", (error) => Effect.die(error)),
        Effect.asVoid
      )
    },
    findById: (id) =>
      inOrganization((organizationId) => query(() => invitations.findOne({ _id: id, organizationId }))).pipe(
        Effect.flatMap(optionalInvitation)
      ),
    findByTokenHash: (tokenHash) =>
      query(() => invitations.findOne({ tokenHash })).pipe(Effect.flatMap(optionalInvitation)),
    page: (invitationQuery, limit) =>
      inOrganization((organizationId) =>
        query(() =>
          invitations
            .find(pageFilter(organizationId, invitationQuery))
            .sort({ organizationId: 1, createdAt: 1, _id: 1 })
            .limit(limit)
            .toArray()
        )
      ).pipe(Effect.flatMap((documents) => Effect.forEach(documents, toInvitation))),
    revoke: (id, entry) =>
      inOrganization((organizationId) =>
        duplicateIsDefect(
          writes.update(
            { _id: id, organizationId, status: "pending" },
            { $set: closed("revoked", id) },
            entry
          )
        )
      ).pipe(Effect.flatMap(optionalInvitation)),
    claim: (tokenHash, now, entry) =>
      duplicateIsDefect(
        writes.update(
          { tokenHash, status: "pending", expiresAt: { $gt: DateTime.toDateUtc(now) } },
          { $set: { status: "accepted", pendingKey: `accepted/${tokenHash}` } },
          entry
        )
      ).pipe(Effect.flatMap(optionalInvitation)),
    removeAll: inOrganization((organizationId) =>
      queryWrite(() => invitations.deleteMany({ organizationId }))
    ).pipe(Effect.asVoid)
  })
})

export const invitationStoreLayer = Layer.effect(InvitationStore, makeInvitationStore)
