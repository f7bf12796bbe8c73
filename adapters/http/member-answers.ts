import { Member, RoleView } from "../../core/index.ts"
import { jsonAnswer, jsonOnce } from "./json-once.ts"
import type { WhoAmIView } from "./views.ts"

/** A member's JSON text, made once per member: the members list and `auth/me` answer it on every request. */
export const memberJson = jsonOnce(Member)

/** A role's JSON text, made once per role as it is read: the roles list answers it on every request. */
export const roleJson = jsonOnce(RoleView)

/**
 * The answer of `GET /auth/me`, its member's text made once. The rest of the view is encoded as it
 * is: the principal, the organisation's summary and the permission keys are strings, which
 * `WhoAmIView` encodes as themselves.
 */
export const whoAmIAnswer = ({ member, ...rest }: typeof WhoAmIView.Type) => {
  const text = JSON.stringify(rest)
  return jsonAnswer(member === undefined ? text : `{"member":${memberJson(member)},${text.slice(1)}`)
}
