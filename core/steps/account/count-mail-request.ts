import { Effect } from "effect"
import type { MailedPurpose } from "../../model/account-token.ts"
import { normalizeEmail } from "../../model/member.ts"
import { throttleClientOf } from "../../policy/throttle.ts"
import { AuthSettings } from "../../ports/auth-settings.ts"
import { countInWindow } from "../auth/count-in-window.ts"

const defaultMailsPerAddress = 3
const defaultMailsPerClient = 20

/**
 * Counts a request for a mail of `purpose` to `email` from `client`, before anything is looked up,
 * whether the address has an account or not: nobody fills a mailbox with links, and the answer
 * says nothing of the address.
 */
export const countMailRequest = Effect.fnUntraced(function* (
  purpose: MailedPurpose,
  email: string,
  client: string
) {
  const { throttle } = yield* AuthSettings
  yield* countInWindow(
    `${purpose}:client:${throttleClientOf(client)}`,
    throttle.maxMailsPerClient ?? defaultMailsPerClient
  )
  yield* countInWindow(
    `${purpose}:email:${normalizeEmail(email)}`,
    throttle.maxMailsPerAddress ?? defaultMailsPerAddress
  )
})
