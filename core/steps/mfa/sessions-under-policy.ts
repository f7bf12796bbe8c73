import { Effect, Option } from "effect"
import type { MemberId, OrganizationId } from "../../model/ids.ts"
import { OrganizationStore } from "../../ports/organization-store.ts"
import { SessionStore } from "../../ports/session-store.ts"
import { everyMember } from "../members/every-member.ts"
import { hasSecondFactor } from "../passkeys/second-factor-of.ts"

/**
 * After an account lost a second factor (TOTP removed or reset, a passkey removed) and holds none
 * other: its sessions in the organisations that require one may only enrol again.
 */
export const restrictSessionsOf = Effect.fnUntraced(function* (accountId: MemberId) {
  if (yield* hasSecondFactor(accountId)) return
  const sessions = yield* SessionStore
  const organizations = yield* OrganizationStore
  const where = new Set((yield* sessions.listOf(accountId)).map((session) => session.organizationId))
  for (const organizationId of where) {
    const organization = yield* organizations.findById(organizationId)
    if (Option.exists(organization, (found) => found.requireMfa === true)) {
      yield* sessions.setMfaPending(organizationId, true, { only: accountId })
    }
  }
})

/**
 * After the organisation changed its policy: when it requires a second factor, the sessions of
 * its members without one (TOTP or a passkey) may only enrol; when it no longer does, none waits.
 */
export const applyMfaPolicy = Effect.fnUntraced(function* (
  organizationId: OrganizationId,
  required: boolean
) {
  const sessions = yield* SessionStore
  if (!required) return yield* sessions.setMfaPending(organizationId, false, {})
  const guarded: Array<MemberId> = []
  for (const member of yield* everyMember()) {
    if (yield* hasSecondFactor(member.id)) guarded.push(member.id)
  }
  yield* sessions.setMfaPending(organizationId, true, { except: guarded })
})
