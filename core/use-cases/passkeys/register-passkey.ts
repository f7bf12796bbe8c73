import { DateTime, Effect, Option } from "effect"
import { PasskeyRefused } from "../../model/errors.ts"
import { PasskeyId, PasskeyRecord, type RegisterPasskeyInput, toPasskey } from "../../model/passkey.ts"
import type { Principal } from "../../model/principal.ts"
import { PasskeyStore } from "../../ports/passkey-store.ts"
import { SessionStore } from "../../ports/session-store.ts"
import { WebAuthn } from "../../ports/webauthn.ts"
import { ownAccount } from "../../steps/account/own-account.ts"
import { auditActorOf, newAuditEntry } from "../../steps/audit/new-audit-entry.ts"
import { requirePasskeys } from "../../steps/passkeys/require-passkeys.ts"

/**
 * Adds a passkey to the signed-in person's account from the browser's response to the options it
 * asked for last (their challenge used once, within five minutes): only its public key and counter
 * are kept. Where a second factor is required, this is enrolling one: the account's sessions wait
 * for none any longer.
 */
export const registerPasskey = Effect.fnUntraced(function* (actor: Principal, input: RegisterPasskeyInput) {
  yield* requirePasskeys
  const { member } = yield* ownAccount(actor)
  const store = yield* PasskeyStore
  const challenge = yield* store.takeChallenge("registration", member.id)
  const now = yield* DateTime.now
  if (Option.isNone(challenge) || !DateTime.isLessThan(now, challenge.value.expiresAt)) {
    return yield* new PasskeyRefused()
  }
  const credential = yield* (yield* WebAuthn).verifyRegistration(input.response, challenge.value.challenge)
  const id = PasskeyId.make(credential.id)
  const record = new PasskeyRecord({
    id,
    accountId: member.id,
    name: input.name,
    publicKey: credential.publicKey,
    counter: credential.counter,
    transports: credential.transports,
    backedUp: credential.backedUp,
    createdAt: now,
    lastUsedAt: null,
    suspended: false
  })
  const entry = yield* newAuditEntry(
    auditActorOf(actor),
    "passkey.added",
    { type: "member", id: member.id },
    {
      passkey: [null, input.name]
    }
  )
  // A credential already kept (this account's or another's) is not taken again.
  if (!(yield* store.add(record, entry))) return yield* new PasskeyRefused()
  yield* (yield* SessionStore).clearMfaPending(member.id)
  return toPasskey(record)
})
