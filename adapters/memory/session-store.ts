import { DateTime, Effect, Layer, Option } from "effect"
import { Session, SessionStore, syncInOrganization } from "../../core/index.ts"

export const makeSessionStore = Effect.sync(() => {
  const sessions = new Map<string, Session>()

  return SessionStore.of({
    create: (session) => Effect.sync(() => void sessions.set(session.tokenHash, session)),
    find: (tokenHash) => Effect.sync(() => Option.fromNullishOr(sessions.get(tokenHash))),
    revoke: (tokenHash) => Effect.sync(() => sessions.delete(tokenHash)),
    revokeAllOf: (memberId, except) =>
      Effect.sync(() => {
        for (const [hash, session] of sessions) {
          if (session.memberId === memberId && hash !== except) sessions.delete(hash)
        }
      }),
    revokeMembership: (memberId) =>
      syncInOrganization((organizationId) => {
        for (const [hash, session] of sessions) {
          if (session.memberId === memberId && session.organizationId === organizationId)
            sessions.delete(hash)
        }
      }),
    listOf: (memberId) =>
      Effect.sync(() =>
        [...sessions.values()]
          .filter((session) => session.memberId === memberId)
          .sort(
            (a, b) =>
              a.createdAt.epochMilliseconds - b.createdAt.epochMilliseconds || a.id.localeCompare(b.id)
          )
      ),
    revokeById: (memberId, id) =>
      Effect.sync(() => {
        const found = [...sessions.values()].find((s) => s.id === id && s.memberId === memberId)
        if (found !== undefined) sessions.delete(found.tokenHash)
        return Option.fromNullishOr(found)
      }),
    noteSeen: (tokenHash, minute) =>
      Effect.sync(() => {
        const session = sessions.get(tokenHash)
        if (session !== undefined && DateTime.isLessThan(session.lastSeenAt, minute))
          sessions.set(tokenHash, new Session({ ...session, lastSeenAt: minute }))
      }),
    setMfaPending: (organizationId, pending, { only, except = [] }) =>
      Effect.sync(() => {
        for (const [hash, session] of sessions) {
          const inScope =
            session.organizationId === organizationId &&
            (only === undefined || session.memberId === only) &&
            !except.includes(session.memberId)
          if (inScope) sessions.set(hash, new Session({ ...session, mfaPending: pending }))
        }
      }),
    clearMfaPending: (memberId) =>
      Effect.sync(() => {
        for (const [hash, session] of sessions) {
          if (session.memberId === memberId)
            sessions.set(hash, new Session({ ...session, mfaPending: false }))
        }
      }),
    carryOver: (tokenHash, memberEpoch) =>
      Effect.sync(() => {
        const session = sessions.get(tokenHash)
        if (session !== undefined) sessions.set(tokenHash, new Session({ ...session, memberEpoch }))
      })
  })
})

export const sessionStoreLayer = Layer.effect(SessionStore, makeSessionStore)
