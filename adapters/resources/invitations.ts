import { DateTime, Effect, Layer, Option } from "effect"
import { Invitation, type InvitationQuery, InvitationStore, inOrganization } from "../../core/index.ts"
import { RecordKit, refusalIsDefect } from "./records.ts"
import { type Condition, resource } from "./resource.ts"

/**
 * Invitations, found by their token's hash wherever they are. `pendingKey` is unique: the
 * organisation and e-mail while pending, so one e-mail has one pending invitation per organisation
 * whatever the number of instances; the invitation's own once it is accepted or revoked.
 */
export const invitations = resource({
  name: "invitations",
  schema: Invitation,
  key: "id",
  columns: ["id", "organizationId", "email", "status", "tokenHash", "expiresAt", "createdAt", "pendingKey"],
  derived: {
    pendingKey: (invitation) =>
      invitation.status === "pending"
        ? `${invitation.organizationId}/${invitation.email}`
        : `${invitation.status}/${invitation.id}`
  },
  unique: [["tokenHash"], ["pendingKey"]],
  indexes: [["organizationId", "createdAt"]],
  audit: "invitation"
})

/** Two re-invitations of one e-mail at once: each tries again until its own is the one pending. */
const attemptsToReplace = 5

/** A page's conditions on status: `expired` is a pending invitation past its time, judged at `now`. */
const statusWhere = (
  query: InvitationQuery
): { readonly status?: Condition; readonly expiresAt?: Condition } => {
  if (query.status === "pending") return { status: "pending", expiresAt: { gt: query.now } }
  if (query.status === "expired") return { status: "pending", expiresAt: { lte: query.now } }
  return query.status === undefined ? {} : { status: query.status }
}

export const invitationStoreLayer = Layer.effect(
  InvitationStore,
  Effect.gen(function* () {
    const records = yield* (yield* RecordKit).open(invitations)
    const closed = (invitation: Invitation, status: "accepted" | "revoked") =>
      new Invitation({ ...invitation, status }, { disableChecks: true })
    return InvitationStore.of({
      replace: (invitation, entry) => {
        const pendingKey = `${invitation.organizationId}/${invitation.email}`
        return records
          .removeAll({ pendingKey })
          .pipe(
            Effect.andThen(records.insert(invitation, entry)),
            Effect.retry({ times: attemptsToReplace, while: (error) => error._tag === "Taken" }),
            refusalIsDefect
          )
      },
      findById: (id) => inOrganization((organizationId) => records.find({ id, organizationId })),
      findByTokenHash: (tokenHash) => records.find({ tokenHash }),
      page: (query, limit) =>
        inOrganization((organizationId) =>
          records.list(
            { organizationId, email: query.email, ...statusWhere(query) },
            { by: ["createdAt"], ...(query.after === undefined ? {} : { after: query.after }), limit }
          )
        ),
      revoke: (id, entry) =>
        inOrganization((organizationId) =>
          records.modify(
            { id, organizationId, status: "pending" },
            (found) => closed(found, "revoked"),
            entry
          )
        ).pipe(Effect.map(Option.map(({ after }) => after))),
      claim: (tokenHash, now, entry) =>
        records
          .modify(
            { tokenHash, status: "pending", expiresAt: { gt: now } },
            (found) => (DateTime.isLessThan(now, found.expiresAt) ? closed(found, "accepted") : undefined),
            entry
          )
          .pipe(
            Effect.map(Option.flatMap(({ after, changed }) => (changed ? Option.some(after) : Option.none())))
          ),
      removeAll: inOrganization((organizationId) => records.removeAll({ organizationId }))
    })
  })
)
