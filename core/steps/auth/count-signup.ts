import { Effect } from "effect"
import { throttleClientOf } from "../../policy/throttle.ts"
import { AuthSettings } from "../../ports/auth-settings.ts"
import { countInWindow } from "./count-in-window.ts"

const defaultSignupsPerClient = 5

/**
 * Counts a signup from `client` (IPv6 by /64) in the login throttle's sliding window, before any
 * work: one address may open only a few organisations per window, whether or not they succeed.
 */
export const countSignup = Effect.fnUntraced(function* (client: string) {
  const settings = yield* AuthSettings
  yield* countInWindow(
    `signup:${throttleClientOf(client)}`,
    settings.throttle.maxSignupsPerClient ?? defaultSignupsPerClient
  )
})
