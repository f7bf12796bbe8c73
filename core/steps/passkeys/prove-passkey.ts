import { DateTime, Effect, Option, Schema } from "effect"
import { homeMembership } from "../../model/account.ts"
import { PasskeyRefused } from "../../model/errors.ts"
import type { MemberId } from "../../model/ids.ts"
import { PasskeyId } from "../../model/passkey.ts"
import { CurrentOrganization } from "../../model/request.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { PasskeyStore } from "../../ports/passkey-store.ts"
import { WebAuthn } from "../../ports/webauthn.ts"
import { newAuditEntry } from "../audit/new-audit-entry.ts"
import { countAttempt } from "../auth/count-attempt.ts"

const asPasskeyId = Schema.decodeUnknownOption(PasskeyId)

/**
 * A passkey's answer to `challenge`, verified: its credential known and not suspended, its user
 * handle (required when no account is expected: a discoverable sign-in) the credential's account,
 * its signature, origin, RP ID and user verification right, and its counter grown since its last
 * use when either is not zero. A counter that did not grow is a clone's: the credential is
 * suspended, recorded, and refused from then on. Each verified try counts on the login throttle as
 * a code guess, and so does an unknown or suspended credential's, against its client. Answers the
 * credential's account, and whether the credential is backed up (synced) as it says now.
 */
export const provePasskey = Effect.fnUntraced(function* (
  response: Record<string, unknown>,
  challenge: string,
  expected: MemberId | undefined,
  client: string
) {
  const webauthn = yield* WebAuthn
  const store = yield* PasskeyStore
  const claims = yield* webauthn.claimsOf(response)
  const id = asPasskeyId(claims.credentialId)
  const found = Option.isNone(id) ? Option.none() : yield* store.find(id.value)
  if (Option.isNone(found) || found.value.suspended) {
    // No account to count against: the client's failures still count, and throttle it.
    yield* countAttempt("code", `credential:${claims.credentialId.slice(0, 128)}`, client)
    return yield* new PasskeyRefused()
  }
  const passkey = found.value
  const handleRight =
    claims.userHandle === undefined ? expected !== undefined : claims.userHandle === passkey.accountId
  if (!handleRight || (expected !== undefined && passkey.accountId !== expected))
    return yield* new PasskeyRefused()
  const attempt = yield* countAttempt("code", `member:${passkey.accountId}`, client)
  const { counter, backedUp } = yield* webauthn.verifyAuthentication(response, challenge, passkey)
  // Stryker disable next-line ConditionalExpression: over a stored zero, a counter above zero is greater, which the comparison decides alone
  if ((counter > 0 || passkey.counter > 0) && counter <= passkey.counter) {
    // Recorded where the account's administrators read: its oldest active membership's organisation.
    const home = homeMembership(yield* (yield* MemberStore).membershipsOf(passkey.accountId))
    const entry = yield* newAuditEntry(
      { kind: "system" },
      "passkey.clone_suspected",
      { type: "member", id: passkey.accountId },
      { passkey: [passkey.name, passkey.name], counter: [passkey.counter, counter] }
    ).pipe(
      home === undefined ? (made) => made : Effect.provideService(CurrentOrganization, home.organizationId)
    )
    yield* store.suspend(passkey.id, entry)
    return yield* new PasskeyRefused()
  }
  // Another use of the credential came first: its counter is not this one's to follow.
  if (!(yield* store.noteUse(passkey.id, passkey.counter, counter, yield* DateTime.now))) {
    return yield* new PasskeyRefused()
  }
  yield* attempt.succeeded
  return { accountId: passkey.accountId, backedUp: backedUp ?? passkey.backedUp }
})
