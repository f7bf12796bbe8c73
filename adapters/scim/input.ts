import { Cause, Exit, Option, Redacted, Schema, SchemaIssue, SchemaTransformation } from "effect"
import {
  Email,
  ExternalId,
  MemberId,
  Password,
  PersonName,
  ProfileText,
  type ProvisionedGroupInput,
  type ProvisionedUserInput,
  ProvisionedUserName,
  RoleName
} from "../../core/index.ts"
import { badRequest, ScimFailure } from "./scim-error.ts"
import { groupSchemaId, userSchemaId } from "./urns.ts"

/** `"True"` and `"False"`, as Entra sends booleans, are booleans. */
const Flag = Schema.Union([
  Schema.Boolean,
  Schema.String.check(Schema.isPattern(/^(true|false)$/iu)).pipe(
    Schema.decodeTo(
      Schema.Boolean,
      SchemaTransformation.transform({
        decode: (text: string) => text.toLowerCase() === "true",
        encode: (flag: boolean) => String(flag)
      })
    )
  )
])

const EmailEntry = Schema.Struct({
  value: Email,
  type: Schema.optionalKey(ProfileText),
  primary: Schema.optionalKey(Flag)
})

const UserBody = Schema.Struct({
  schemas: Schema.Array(Schema.String),
  userName: ProvisionedUserName,
  externalId: Schema.optionalKey(ExternalId),
  name: Schema.optionalKey(PersonName),
  displayName: Schema.optionalKey(ProfileText),
  emails: Schema.optionalKey(Schema.Array(EmailEntry)),
  active: Schema.optionalKey(Flag),
  password: Schema.optionalKey(Password)
})

const GroupBody = Schema.Struct({
  schemas: Schema.Array(Schema.String),
  displayName: RoleName,
  externalId: Schema.optionalKey(ExternalId),
  members: Schema.optionalKey(Schema.Array(Schema.Struct({ value: Schema.String })))
})

/** Attributes sent as `null` are attributes not sent (RFC 7643 §2.5). */
const withoutNulls = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutNulls)
  if (typeof value !== "object" || value === null) return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, field]) => field !== null)
      .map(([key, field]) => [key, withoutNulls(field)])
  )
}

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()

const segment = (part: PropertyKey | { readonly key: PropertyKey }) =>
  String(typeof part === "object" && part !== null ? part.key : part)

/** The body decoded, or the first thing wrong with it: its path and why. */
const decoding =
  <A extends { readonly schemas: ReadonlyArray<string> }>(
    decode: (body: unknown) => Exit.Exit<A, Schema.SchemaError>,
    schemaId: string
  ) =>
  (body: unknown): A | ScimFailure => {
    const result = decode(withoutNulls(body))
    if (Exit.isFailure(result)) {
      const error = Cause.findErrorOption(result.cause)
      const issue = Option.isSome(error) ? formatIssues(error.value.issue).issues[0] : undefined
      const path = (issue?.path ?? []).map(segment).join(".")
      return badRequest(
        "invalidValue",
        issue === undefined ? "The body is not valid" : `${path}: ${issue.message}`
      )
    }
    if (!result.value.schemas.includes(schemaId)) {
      return badRequest("invalidSyntax", `schemas must hold ${schemaId}`)
    }
    return result.value
  }

const decodeUser = decoding(Schema.decodeUnknownExit(UserBody), userSchemaId)
const decodeGroup = decoding(Schema.decodeUnknownExit(GroupBody), groupSchemaId)

const isMemberId = Schema.is(MemberId)

/** A User body as what the member is to be, and the password, if one is set; a failure otherwise. */
export const userInputOf = (
  body: unknown
):
  | { readonly input: ProvisionedUserInput; readonly password: Option.Option<Redacted.Redacted<string>> }
  | ScimFailure => {
  const user = decodeUser(body)
  if (user instanceof ScimFailure) return user
  const emails = user.emails ?? []
  const email = emails.find((entry) => entry.primary === true) ?? emails[0]
  const input: ProvisionedUserInput = {
    userName: user.userName,
    ...(email === undefined ? {} : { email: email.value }),
    ...(email?.type === undefined ? {} : { emailType: email.type }),
    ...(email?.primary === undefined ? {} : { emailPrimary: email.primary }),
    ...(user.active === undefined ? {} : { active: user.active }),
    ...(user.externalId === undefined ? {} : { externalId: user.externalId }),
    ...(user.displayName === undefined ? {} : { displayName: user.displayName }),
    ...(user.name === undefined ? {} : { name: user.name })
  }
  return { input, password: Option.map(Option.fromUndefinedOr(user.password), Redacted.make) }
}

/**
 * A Group body as what the group is to be. Member values that name no member (no member id at all)
 * are left out like unknown ones: the group answered shows whom it holds.
 */
export const groupInputOf = (body: unknown): ProvisionedGroupInput | ScimFailure => {
  const group = decodeGroup(body)
  if (group instanceof ScimFailure) return group
  return {
    displayName: group.displayName,
    ...(group.externalId === undefined ? {} : { externalId: group.externalId }),
    memberIds: (group.members ?? []).map((member) => member.value).filter(isMemberId)
  }
}
