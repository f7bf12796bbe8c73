import { Effect, Layer, Option } from "effect"
import { type Session, SessionStore } from "../../core/index.ts"

export const makeSessionStore = Effect.sync(() => {
  const sessions = new Map<string, Session>()

  return SessionStore.of({
    create: (session) => Effect.sync(() => void sessions.set(session.tokenHash, session)),
    find: (tokenHash) => Effect.sync(() => Option.fromNullishOr(sessions.get(tokenHash))),
    revoke: (tokenHash) => Effect.sync(() => sessions.delete(tokenHash)),
    revokeAllOf: (memberId) =>
      Effect.sync(() => {
        for (const [hash, session] of sessions) if (session.memberId === memberId) sessions.delete(hash)
      })
  })
})

export const sessionStoreLayer = Layer.effect(SessionStore, makeSessionStore)
