import { Schema, SchemaTransformation } from "effect"
import { HttpApiSchema } from "effect/http-api"
import { MemberCursor, MemberFilter, PageLimit, RoleCursor, RoleId } from "../../../core/index.ts"

/**
 * Whole numbers in a path or a query are written one way only (no sign on zero, no leading zeros):
 * `/01` is not another name for `/1`. The published pattern says so.
 */
export const integerText = Schema.String.check(
  Schema.isPattern(/^(0|-?[1-9]\d{0,14})$/u, { expected: "an integer" })
)
export const fromText = SchemaTransformation.transform({ decode: Number, encode: String })

const booleanText = Schema.Literals(["true", "false"]).pipe(
  Schema.decodeTo(
    Schema.Boolean,
    SchemaTransformation.transform({
      decode: (text) => text === "true",
      encode: (flag) => (flag ? "true" : "false")
    })
  )
)

export const limit = Schema.optionalKey(
  Schema.String.check(
    Schema.isPattern(/^(?:[1-9]\d?|1\d\d|200)$/u, { expected: "an integer from 1 to 200" })
  ).pipe(Schema.decodeTo(PageLimit, fromText))
)

/** `limit` (1–200) and the opaque `cursor` of the previous page's `Link`. */
export const RolesQuery = { limit, cursor: Schema.optionalKey(RoleCursor) }

export const MembersQuery = {
  limit,
  cursor: Schema.optionalKey(MemberCursor),
  roleId: Schema.optionalKey(integerText.pipe(Schema.decodeTo(RoleId, fromText))),
  active: Schema.optionalKey(booleanText),
  q: MemberFilter.fields.q,
  permission: Schema.optionalKey(Schema.String.check(Schema.isBetweenLength(1, 100)))
}

/** What the list parameters mean, and the format of those that have one, for the published document. */
export const queryDocs: Readonly<Record<string, { readonly description: string; readonly format?: string }>> =
  {
    limit: { description: "How many items the page holds: 1 to 200, 50 when absent" },
    cursor: {
      description: "Where to go on from: the cursor in the previous page's Link, passed back as it is"
    },
    roleId: { description: "Only members of this role" },
    active: {
      description: "true: only members who can act (membership and account active); false: only the others"
    },
    q: { description: "A prefix of the username or the e-mail, ignoring case" },
    permission: {
      description:
        "Only members whose role holds this permission (its key, Roster's or the product's); an unknown key is 422 unknown_permission"
    },
    status: { description: "Only invitations in this state: pending, accepted, revoked or expired" },
    action: { description: "Only entries of this action" },
    actorId: { description: "Only entries of what this member did" },
    targetId: { description: "Only entries about this member, role, record or subscription (its id)" },
    since: { description: "Only entries at or after this instant (RFC 3339)", format: "date-time" }
  }

/** A list answers one page as a JSON array; `Link: <…>; rel="next"` (RFC 8288) while more remain. */
export const pageSchemaOf = <S extends Schema.Top>(item: S) =>
  HttpApiSchema.WithHeaders(Schema.Array(item), {
    link: Schema.optionalKey(
      Schema.String.annotate({
        description: 'While more items remain: `<path?query>; rel="next"` (RFC 8288)'
      })
    )
  })
