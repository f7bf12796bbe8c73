import { Effect } from "effect"
import { throttleClientOf } from "../../policy/throttle.ts"
import { AuthSettings } from "../../ports/auth-settings.ts"
import { countInWindow } from "./count-in-window.ts"

/**
 * What a caller nobody knows yet may ask for that writes a record: a single sign-on's start (its
 * state), passkey sign-in options (their challenge), a single sign-on's code exchanged (a session).
 */
export type SignInStart = "sso_start" | "passkey_options" | "sso_token"

const defaultStartsPerClient = 100

/**
 * Counts a sign-in of `kind` started from `client` (IPv6 by /64) in the login throttle's sliding
 * window, before any work: no address fills the store with records by asking for them in a loop,
 * whether or not its sign-ins end. Each kind is counted apart, so one does not starve another.
 */
export const countSignInStart = Effect.fnUntraced(function* (kind: SignInStart, client: string) {
  const { throttle } = yield* AuthSettings
  yield* countInWindow(
    `${kind}:client:${throttleClientOf(client)}`,
    throttle.maxSignInStartsPerClient ?? defaultStartsPerClient
  )
})
