import { DateTime } from "effect"
import type { AuditAction, AuditEntry } from "./audit.ts"
import type { EventObjectKind, EventType } from "./event-catalog.ts"
import { EventId, type OrganizationId } from "./ids.ts"
import { defaultOrganizationId } from "./organization.ts"

/** What an event announces of its object: made (its fields after), changed (and before), gone (before). */
type Shape = "made" | "changed" | "gone"

const announced: Partial<Record<AuditAction, readonly [EventType, EventObjectKind, Shape]>> = {
  "member.added": ["member.added", "member", "made"],
  "member.updated": ["member.updated", "member", "changed"],
  "account.enabled": ["member.updated", "member", "changed"],
  "account.disabled": ["member.updated", "member", "changed"],
  "email.verified": ["member.updated", "member", "changed"],
  "member.removed": ["member.removed", "member", "gone"],
  "role.added": ["role.created", "role", "made"],
  "role.updated": ["role.updated", "role", "changed"],
  "role.removed": ["role.deleted", "role", "gone"],
  "invitation.created": ["invitation.created", "invitation", "made"],
  "invitation.accepted": ["invitation.accepted", "invitation", "made"],
  "invitation.revoked": ["invitation.revoked", "invitation", "gone"],
  "subscription.created": ["subscription.updated", "subscription", "made"],
  "subscription.updated": ["subscription.updated", "subscription", "changed"],
  "organization.updated": ["organization.updated", "organization", "changed"],
  "organization.deleted": ["organization.deleted", "organization", "gone"],
  "api_key.created": ["api_key.created", "api_key", "made"],
  "api_key.updated": ["api_key.updated", "api_key", "changed"],
  "api_key.revoked": ["api_key.revoked", "api_key", "gone"],
  "domain.created": ["domain.created", "domain", "made"],
  "domain.verified": ["domain.verified", "domain", "changed"],
  "domain.deleted": ["domain.deleted", "domain", "gone"],
  "sso.connection.created": ["sso.connection.created", "sso_connection", "made"],
  "sso.connection.updated": ["sso.connection.updated", "sso_connection", "changed"],
  "sso.connection.deleted": ["sso.connection.deleted", "sso_connection", "gone"],
  "sso.login": ["sso.login", "sso_login", "made"]
}

const permissionChanges: ReadonlySet<AuditAction> = new Set(["permission.granted", "permission.removed"])

/**
 * The changes that end sessions, announced as `session.revoked` (besides what else they announce):
 * one session (its entry's target), or every session of the account (the target).
 */
const sessionEnds: ReadonlySet<AuditAction> = new Set([
  "session.revoked",
  "member.password_set",
  "member.password_changed",
  "password.reset",
  "account.disabled"
])

/** Whether the change an entry records is announced to the organisation's endpoints. */
export const isAnnounced = (action: AuditAction): boolean =>
  action in announced || permissionChanges.has(action) || sessionEnds.has(action)

/** An event, as every endpoint subscribed to its type is sent it. */
export interface RosterEvent {
  readonly id: EventId
  readonly type: EventType
  readonly organizationId: OrganizationId
  /** The message's body, as sent on every attempt: `{ type, timestamp, data }`. */
  readonly body: string
}

/** An entry's id stands for its event: `aud_…` is announced as `evt_…`, the same on every attempt. */
// Stryker disable next-line Regex: an entry's id starts with its only `aud_`
export const eventIdOf = (entry: AuditEntry): EventId => EventId.make(`evt_${entry.id.replace(/^aud_/, "")}`)

export const messageBody = (type: EventType, at: DateTime.Utc, data: object) =>
  JSON.stringify({ type, timestamp: DateTime.formatIso(at), data })

// An email's proof has no fields to list: its event says what it changed.
const implied: Partial<Record<AuditAction, Record<string, readonly [unknown, unknown]>>> = {
  "email.verified": { emailVerified: [false, true] }
}

const sideOf = (changes: AuditEntry["changes"], side: 0 | 1) => {
  const fields: Record<string, unknown> = {}
  for (const [field, values] of Object.entries(changes)) {
    const value = values[side]
    if (value !== null && value !== undefined) fields[field] = value
  }
  return fields
}

/** An object's id as the API answers it: a role's is its number; every other's, the entry's text. */
const idOf = (kind: EventObjectKind, id: string): string | number => (kind === "role" ? Number(id) : id)

const dataOf = (entry: AuditEntry, organizationId: OrganizationId) => {
  if (permissionChanges.has(entry.action)) {
    const [was, is] = entry.changes.permissionId ?? [null, null]
    const roleId = entry.changes.roleId?.[0] ?? entry.changes.roleId?.[1]
    return {
      organizationId,
      ...(roleId === null || roleId === undefined ? {} : { roleId }),
      permissionId: is ?? was,
      granted: entry.action === "permission.granted"
    }
  }
  const [, kind, shape] = announced[entry.action] as readonly [EventType, EventObjectKind, Shape]
  const changes = { ...entry.changes, ...implied[entry.action] }
  const object = { id: idOf(kind, entry.target.id), ...sideOf(changes, shape === "gone" ? 0 : 1) }
  if (shape !== "changed") return { organizationId, [kind]: object }
  const previous: Record<string, unknown> = {}
  for (const [field, [was]] of Object.entries(changes)) previous[field] = was
  return { organizationId, [kind]: object, previous }
}

/** What `session.revoked` says: whose sessions ended, and which one when it was one. */
const sessionsEndedOf = (entry: AuditEntry, organizationId: OrganizationId) =>
  entry.target.type === "session"
    ? { organizationId, accountId: entry.actor.id ?? "", sid: entry.target.id }
    : { organizationId, accountId: entry.target.id }

/**
 * The events an audit entry announces (none when its change is not one the catalog holds; two for
 * a change that is announced and ends sessions, the second's id the first's with `.sessions`). They
 * say what the change was when it was made, from the entry alone: never a later state, never a
 * secret (an entry holds none).
 */
export const eventsOfEntry = (entry: AuditEntry): ReadonlyArray<RosterEvent> => {
  const organizationId = entry.organizationId ?? defaultOrganizationId
  const events: Array<RosterEvent> = []
  const type = permissionChanges.has(entry.action) ? "role.permissions_changed" : announced[entry.action]?.[0]
  if (type !== undefined) {
    events.push({
      id: eventIdOf(entry),
      type,
      organizationId,
      body: messageBody(type, entry.at, dataOf(entry, organizationId))
    })
  }
  if (sessionEnds.has(entry.action)) {
    events.push({
      id: EventId.make(type === undefined ? eventIdOf(entry) : `${eventIdOf(entry)}.sessions`),
      type: "session.revoked",
      organizationId,
      body: messageBody("session.revoked", entry.at, sessionsEndedOf(entry, organizationId))
    })
  }
  return events
}
