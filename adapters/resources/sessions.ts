import { DateTime, Effect, Layer, Option } from "effect"
import { inOrganization, Session, SessionStore } from "../../core/index.ts"
import { expirySweep } from "./expiry-sweep.ts"
import { RecordKit, refusalIsDefect } from "./records.ts"
import { resource } from "./resource.ts"

/**
 * Sessions keyed by the SHA-256 of their token (the token is never stored), their public id unique;
 * found by account (listed oldest first) and by organisation (what a policy's change marks). On
 * MongoDB the collection is the one `SessionLookup` keeps its snapshots on, beside the record: the
 * fences (consistency/session-fences.ts) drop them there, and the kit's writes leave them alone.
 */
export const sessions = resource({
  name: "sessions",
  schema: Session,
  key: "tokenHash",
  columns: ["tokenHash", "id", "memberId", "organizationId", "createdAt", "expiresAt"],
  unique: [["id"]],
  indexes: [["memberId", "createdAt", "id"], ["organizationId", "memberId"], ["expiresAt"]]
})

const oldestFirst = { by: ["createdAt", "id"] } as const

export const sessionStoreLayer = Layer.effect(
  SessionStore,
  Effect.gen(function* () {
    const kept = yield* (yield* RecordKit).open(sessions)
    const sweep = expirySweep(kept)
    const withPending = (mfaPending: boolean) => (session: Session) =>
      session.mfaPending === mfaPending ? undefined : new Session({ ...session, mfaPending })
    return SessionStore.of({
      create: (session) =>
        sweep(session.createdAt).pipe(Effect.andThen(refusalIsDefect(kept.insert(session)))),
      find: (tokenHash) => kept.find({ tokenHash }),
      revoke: (tokenHash) => kept.remove({ tokenHash }).pipe(Effect.map(Option.isSome)),
      revokeAllOf: (memberId, except) =>
        kept.removeAll({ memberId, tokenHash: except === undefined ? undefined : { notIn: [except] } }),
      revokeMembership: (memberId) =>
        inOrganization((organizationId) => kept.removeAll({ memberId, organizationId })),
      listOf: (memberId) => kept.list({ memberId }, oldestFirst),
      revokeById: (memberId, id) => kept.remove({ id, memberId }),
      noteSeen: (tokenHash, lastSeenAt) =>
        kept
          .modify({ tokenHash }, (session) =>
            DateTime.isLessThan(session.lastSeenAt, lastSeenAt)
              ? new Session({ ...session, lastSeenAt })
              : undefined
          )
          .pipe(Effect.asVoid),
      setMfaPending: (organizationId, pending, { only, except = [] }) =>
        kept
          .modifyAll(
            { organizationId, memberId: { ...(only === undefined ? {} : { in: [only] }), notIn: except } },
            withPending(pending)
          )
          .pipe(Effect.asVoid),
      clearMfaPending: (memberId) => kept.modifyAll({ memberId }, withPending(false)).pipe(Effect.asVoid),
      carryOver: (tokenHash, memberEpoch) =>
        kept.modify({ tokenHash }, (session) => new Session({ ...session, memberEpoch })).pipe(Effect.asVoid)
    })
  })
)
