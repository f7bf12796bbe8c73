import { Schema } from "effect"
import type { PermissionKey } from "./permission.ts"

const Id = Schema.String
const at = Schema.optionalKey
const Instant = Schema.String.annotate({ description: "An instant in RFC 3339" })

const objects = {
  member: Schema.Struct({
    id: Id,
    username: at(Schema.String),
    email: at(Schema.String),
    emailVerified: at(Schema.Boolean),
    activestatus: at(Schema.Boolean),
    accountActiveStatus: at(Schema.Boolean),
    roleId: at(Schema.Int)
  }),
  role: Schema.Struct({
    // A role is numbered, in its events as in the API.
    id: Schema.Int,
    name: at(Schema.String),
    roleKey: at(Schema.String),
    activeStatus: at(Schema.Boolean)
  }),
  invitation: Schema.Struct({
    id: Id,
    email: at(Schema.String),
    roleId: at(Schema.Int),
    expiresAt: at(Instant)
  }),
  subscription: Schema.Struct({
    id: Id,
    planId: at(Schema.String),
    status: at(Schema.String),
    providerSubscriptionId: at(Schema.NullOr(Schema.String)),
    providerCustomerId: at(Schema.NullOr(Schema.String))
  }),
  organization: Schema.Struct({
    id: Id,
    name: at(Schema.String),
    slug: at(Schema.String),
    defaultRoleId: at(Schema.NullOr(Schema.Int)),
    ownerRoleId: at(Schema.NullOr(Schema.Int)),
    requireMfa: at(Schema.Boolean),
    ssoRequired: at(Schema.Boolean)
  }),
  api_key: Schema.Struct({
    id: Id,
    name: at(Schema.String),
    permissions: at(Schema.Array(Schema.Int)),
    expiresAt: at(Schema.NullOr(Instant))
  }),
  domain: Schema.Struct({ id: Id, domain: at(Schema.String), status: at(Schema.String) }),
  sso_connection: Schema.Struct({
    id: Id,
    kind: at(Schema.String),
    name: at(Schema.String),
    status: at(Schema.String),
    issuer: at(Schema.String),
    clientId: at(Schema.String),
    scopes: at(Schema.Array(Schema.String)),
    idpEntityId: at(Schema.String),
    idpSsoUrl: at(Schema.String)
  }),
  sso_login: Schema.Struct({
    id: Id.annotate({ description: "The member who signed in" }),
    connectionId: at(Schema.String),
    justInTime: at(Schema.Boolean)
  })
} as const
export type EventObjectKind = keyof typeof objects

/** What an event of a change to one object carries: the object, and what a change replaced. */
const changeOf = (kind: EventObjectKind, withPrevious: boolean) =>
  Schema.Struct({
    organizationId: Schema.String,
    [kind]: objects[kind],
    ...(withPrevious
      ? {
          previous: Schema.optionalKey(
            Schema.Record(Schema.String, Schema.Unknown).annotate({
              description: "The changed fields' values before the change"
            })
          )
        }
      : {})
  })

/**
 * An event type: what it says, what its `data` holds, and the permission that reads its resource
 * through the API (an endpoint hears only what its creator may read).
 */
const entry = (description: string, data: Schema.Top, readableWith: PermissionKey) => ({
  description,
  data,
  readableWith
})

/** The events Roster sends, each with what its `data` holds. Only appended to. */
export const eventCatalog = {
  "member.added": entry("A member joined the organisation", changeOf("member", false), "team.read"),
  "member.updated": entry(
    "A member's role, flags or profile changed (the fields that changed, and `previous`)",
    changeOf("member", true),
    "team.read"
  ),
  "member.removed": entry(
    "A member left or was removed: revoke their access",
    changeOf("member", false),
    "team.read"
  ),
  "role.created": entry("A role was added", changeOf("role", false), "team.read"),
  "role.updated": entry("A role was renamed or its standing changed", changeOf("role", true), "team.read"),
  "role.deleted": entry("A role was deleted", changeOf("role", false), "team.read"),
  "role.permissions_changed": entry(
    "A permission was granted to a role or removed from it",
    Schema.Struct({
      organizationId: Schema.String,
      roleId: Schema.optionalKey(Schema.Int),
      permissionId: Schema.Int,
      granted: Schema.Boolean
    }),
    "team.read"
  ),
  "invitation.created": entry("An invitation was made", changeOf("invitation", false), "team.read"),
  "invitation.accepted": entry("An invitation was accepted", changeOf("invitation", false), "team.read"),
  "invitation.revoked": entry("An invitation was revoked", changeOf("invitation", false), "team.read"),
  "subscription.updated": entry(
    "The subscription was made or its status or plan changed",
    changeOf("subscription", true),
    "billing.read"
  ),
  "organization.updated": entry(
    "The organisation's name or settings changed",
    changeOf("organization", true),
    "team.read"
  ),
  "organization.deleted": entry("The organisation was deleted", changeOf("organization", false), "team.read"),
  "api_key.created": entry(
    "An API key was created",
    changeOf("api_key", false),
    "organization.api_keys.write"
  ),
  "api_key.revoked": entry(
    "An API key was revoked",
    changeOf("api_key", false),
    "organization.api_keys.write"
  ),
  "domain.created": entry("A domain was claimed", changeOf("domain", false), "organization.sso.write"),
  "domain.verified": entry("A domain was verified", changeOf("domain", true), "organization.sso.write"),
  "domain.deleted": entry("A domain was removed", changeOf("domain", false), "organization.sso.write"),
  "sso.connection.created": entry(
    "A single sign-on connection was made",
    changeOf("sso_connection", false),
    "organization.sso.write"
  ),
  "sso.connection.updated": entry(
    "A single sign-on connection changed",
    changeOf("sso_connection", true),
    "organization.sso.write"
  ),
  "sso.connection.deleted": entry(
    "A single sign-on connection was deleted",
    changeOf("sso_connection", false),
    "organization.sso.write"
  ),
  "sso.login": entry("A member signed in through single sign-on", changeOf("sso_login", false), "audit.read"),
  "session.revoked": entry(
    "Sessions ended: a logout, one ended by its owner (sid), or all of an account's (its password set, the account disabled). Drop the access tokens made from them",
    Schema.Struct({
      organizationId: Schema.String,
      accountId: Schema.String,
      sid: Schema.optionalKey(Schema.String.annotate({ description: "The session, when one ended" }))
    }),
    "team.read"
  ),
  "api_key.updated": entry(
    "An API key's name or permissions changed (the fields that changed, and `previous`)",
    changeOf("api_key", true),
    "organization.api_keys.write"
  ),
  "webhook.test": entry(
    "A test an administrator sent to one endpoint",
    Schema.Struct({ organizationId: Schema.String, webhookId: Schema.String }),
    "organization.webhooks.write"
  )
} as const

export const EventType = Schema.Literals(Object.keys(eventCatalog) as Array<keyof typeof eventCatalog>)
export type EventType = typeof EventType.Type
