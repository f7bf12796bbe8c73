import { Effect, Option } from "effect"
import { NotFound } from "../../model/errors.ts"
import { type PasskeyId, toPasskey } from "../../model/passkey.ts"
import type { Principal } from "../../model/principal.ts"
import { PasskeyStore } from "../../ports/passkey-store.ts"
import { ownAccount } from "../../steps/account/own-account.ts"

/** Renames one of the signed-in person's passkeys; another account's is not found. */
export const renamePasskey = Effect.fnUntraced(function* (actor: Principal, id: PasskeyId, name: string) {
  const { member } = yield* ownAccount(actor)
  const renamed = yield* (yield* PasskeyStore).rename(member.id, id, name)
  if (Option.isNone(renamed)) return yield* new NotFound({ entity: "passkey", id })
  return toPasskey(renamed.value)
})
