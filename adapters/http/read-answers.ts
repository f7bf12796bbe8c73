import { Effect, Schema } from "effect"
import {
  currentOrganization,
  type ListMembersInput,
  type ListRolesInput,
  listMembers,
  listRoles,
  Member,
  MemberCursor,
  type Principal,
  permissionKeysOf,
  RoleCursor,
  RoleView
} from "../../core/index.ts"
import { MembersQuery, RolesQuery } from "./api/list-query.ts"
import { pageText } from "./handlers/page-response.ts"
import { jsonAnswer, jsonOnce } from "./json-once.ts"
import { toWhoAmIView, type WhoAmIView } from "./views.ts"

/** A member's JSON text, made once per member: the members list and `auth/me` answer it on every request. */
export const memberJson = jsonOnce(Member)

/** A role's JSON text, made once per role as it is read: the roles list answers it on every request. */
export const roleJson = jsonOnce(RoleView)

/** The text of a JSON answer and its headers. */
export interface AnswerText {
  readonly text: string
  readonly headers: Readonly<Record<string, string>>
}

/** An answer's text as the router sends it: HttpApi sends a response a handler returns as it is. */
export const toJsonAnswer = ({ text, headers }: AnswerText) => jsonAnswer(text, headers)

/** One page of roles as the roles list answers it; `url` is the request's path and query. */
export const rolesPage = (actor: Principal, input: ListRolesInput, url: string) =>
  Effect.map(listRoles(actor, input), pageText(RoleCursor, url, roleJson))

/** One page of members as the members list answers it; `url` is the request's path and query. */
export const membersPage = (actor: Principal, input: ListMembersInput, url: string) =>
  Effect.map(listMembers(actor, input), pageText(MemberCursor, url, memberJson))

/**
 * The answer of `GET /auth/me`, its member's text made once. The rest of the view is encoded as it
 * is: the principal, the organisation's summary and the permission keys are strings, which
 * `WhoAmIView` encodes as themselves.
 */
export const whoAmIText = ({ member, ...rest }: typeof WhoAmIView.Type): AnswerText => {
  const text = JSON.stringify(rest)
  return {
    text: member === undefined ? text : `{"member":${memberJson(member)},${text.slice(1)}`,
    headers: {}
  }
}

/** Who the caller is, where its request acts, and what it may do, as `GET /auth/me` answers. */
export const whoAmI = (actor: Principal) =>
  Effect.zipWith(currentOrganization, permissionKeysOf(actor), (organization, permissions) =>
    whoAmIText(toWhoAmIView(actor, organization, permissions))
  )

/**
 * A read every client repeats: its query as its endpoint declares it (`Schema.Struct` of the same
 * fields) and its answer. Its handler and the reads answered before the router call this one
 * function, so an answer is the same whichever path asked (`direct-reads.ts`).
 */
const repeatedRead = <F extends Schema.Struct.Fields, E, R>(
  fields: F,
  answer: (actor: Principal, query: Schema.Struct<F>["Type"], url: string) => Effect.Effect<AnswerText, E, R>
) => ({ query: Schema.Struct(fields), answer })

/** The page after `cursor`: the list's own input. */
const fromCursor = <Q extends { readonly cursor?: C }, C>({ cursor, ...rest }: Q) =>
  cursor === undefined ? rest : { ...rest, after: cursor }

/** The repeated reads, by operation: `GET /team/roles`, `GET /team/members`, `GET /auth/me`. */
export const repeatedReads = {
  "team.listRoles": repeatedRead(RolesQuery, (actor, query, url) => rolesPage(actor, fromCursor(query), url)),
  "team.listMembers": repeatedRead(MembersQuery, (actor, query, url) =>
    membersPage(actor, fromCursor(query), url)
  ),
  "auth.me": repeatedRead({}, (actor) => whoAmI(actor))
}
