import { Effect } from "effect"
import { toPasskey } from "../../model/passkey.ts"
import type { Principal } from "../../model/principal.ts"
import { PasskeyStore } from "../../ports/passkey-store.ts"
import { ownAccount } from "../../steps/account/own-account.ts"

/** The signed-in person's passkeys, oldest first: names and dates, never a key. */
export const listPasskeys = Effect.fnUntraced(function* (actor: Principal) {
  const { member } = yield* ownAccount(actor)
  return (yield* (yield* PasskeyStore).ofAccount(member.id)).map(toPasskey)
})
