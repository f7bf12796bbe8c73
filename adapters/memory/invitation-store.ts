import { DateTime, Effect, Layer, Option } from "effect"
import {
  byCreation,
  Invitation,
  type InvitationQuery,
  InvitationStore,
  isOlderThan,
  statusAt,
  syncInOrganization
} from "../../core/index.ts"
import { MemoryAuditTrail } from "./audit-log.ts"

const matches = (invitation: Invitation, query: InvitationQuery) =>
  (query.after === undefined || isOlderThan(query.after, invitation)) &&
  (query.status === undefined || statusAt(invitation, query.now) === query.status) &&
  (query.email === undefined || invitation.email === query.email)

export const makeInvitationStore = Effect.gen(function* () {
  const trail = yield* MemoryAuditTrail
  const byId = new Map<string, Invitation>()
  const inOrganization = (organizationId: string) =>
    [...byId.values()].filter((invitation) => invitation.organizationId === organizationId)
  const lookup = (organizationId: string, id: string) =>
    Option.filter(Option.fromNullishOr(byId.get(id)), (found) => found.organizationId === organizationId)
  const save = (invitation: Invitation) => {
    byId.set(invitation.id, invitation)
    return invitation
  }

  return InvitationStore.of({
    replace: (invitation, entry) =>
      Effect.sync(() => {
        for (const other of inOrganization(invitation.organizationId)) {
          if (other.status === "pending" && other.email === invitation.email) byId.delete(other.id)
        }
        save(invitation)
        trail.append(entry)
      }),
    findById: (id) => syncInOrganization((organizationId) => lookup(organizationId, id)),
    findByTokenHash: (tokenHash) =>
      Effect.sync(() =>
        Option.fromNullishOr([...byId.values()].find((invitation) => invitation.tokenHash === tokenHash))
      ),
    page: (query, limit) =>
      syncInOrganization((organizationId) =>
        inOrganization(organizationId)
          .filter((invitation) => matches(invitation, query))
          .sort(byCreation)
          .slice(0, limit)
      ),
    revoke: (id, entry) =>
      syncInOrganization((organizationId) =>
        Option.map(
          Option.filter(lookup(organizationId, id), (found) => found.status === "pending"),
          (found) => {
            trail.append(entry)
            return save(new Invitation({ ...found, status: "revoked" }))
          }
        )
      ),
    claim: (tokenHash, now, entry) =>
      Effect.sync(() => {
        const found = [...byId.values()].find(
          (invitation) => invitation.tokenHash === tokenHash && invitation.status === "pending"
        )
        if (found === undefined || !DateTime.isLessThan(now, found.expiresAt)) return Option.none()
        trail.append(entry)
        return Option.some(save(new Invitation({ ...found, status: "accepted" })))
      }),
    removeAll: syncInOrganization((organizationId) => {
      for (const invitation of inOrganization(organizationId)) byId.delete(invitation.id)
    })
  })
})

export const invitationStoreLayer = Layer.effect(InvitationStore, makeInvitationStore)
