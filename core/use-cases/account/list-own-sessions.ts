import { DateTime, Effect, Option } from "effect"
import type { Principal } from "../../model/principal.ts"
import type { Session } from "../../model/session.ts"
import { SessionLookup } from "../../ports/session-lookup.ts"
import { SessionStore } from "../../ports/session-store.ts"
import { ownAccount } from "../../steps/account/own-account.ts"
import { sessionRefusal } from "../../steps/auth/session-refusal.ts"

/** A session as its owner sees it: never its token nor the token's digest. */
export interface OwnSession {
  readonly session: Session
  /** Whether it is the session the caller is using. */
  readonly current: boolean
}

/**
 * The signed-in person's sessions that can still act (or will, once a paused membership or role
 * is active again), in every organisation of their account, oldest first. Each is judged as
 * authenticating would judge it: ended, expired and outdated ones are not shown, even while their
 * store still holds them.
 */
export const listOwnSessions = Effect.fnUntraced(function* (actor: Principal) {
  const { member, sessionTokenHash } = yield* ownAccount(actor)
  const stored = yield* (yield* SessionStore).listOf(member.id)
  const lookup = yield* SessionLookup
  const now = yield* DateTime.now
  const alive = yield* Effect.filter(stored, (session) =>
    Effect.map(lookup.find(session.tokenHash), (found) =>
      Option.match(found, {
        onNone: () => false,
        onSome: (standing) => sessionRefusal(standing, now)?._tag !== "Unauthenticated"
      })
    )
  )
  return alive.map((session): OwnSession => ({ session, current: session.tokenHash === sessionTokenHash }))
})
