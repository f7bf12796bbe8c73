import { Effect } from "effect"
import type { Organization } from "../../model/organization.ts"
import { SessionStore } from "../../ports/session-store.ts"
import { everyMember } from "../members/every-member.ts"
import { heldToSso } from "./require-password-allowed.ts"

/**
 * After the organisation turned single sign-on on: the sessions there of the members it now holds
 * to it (owners aside) that no single sign-on made end, so a password signed in before counts no more.
 */
export const applySsoPolicy = Effect.fnUntraced(function* (organization: Organization) {
  const sessions = yield* SessionStore
  for (const member of yield* everyMember()) {
    if (!(yield* heldToSso(member, organization))) continue
    for (const session of yield* sessions.listOf(member.id)) {
      if (session.organizationId === organization.id && !session.amr.includes("sso")) {
        yield* sessions.revokeById(member.id, session.id)
      }
    }
  }
})
