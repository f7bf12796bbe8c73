import { assert, describe, it } from "@effect/vitest"
import { DateTime, Exit, Schema } from "effect"
import {
  AuditCursor,
  AuditEntry,
  InboxEntry,
  MemberRecord,
  NewRole,
  Plan,
  Role,
  RolePermissionDetail,
  Session,
  StoredResponse,
  Subscription,
  TokenHash
} from "../../core/index.ts"

const at = DateTime.makeUnsafe(1_700_000_000_000)
const hash = "a".repeat(64)

/**
 * What the stores read back (and the operator's plan file) is decoded by these schemas, so a damaged
 * document is refused rather than served: each record decodes whole and refuses one broken field.
 */
const auditEntry = {
  id: "aud_1",
  at,
  action: "role.added",
  actor: { kind: "master" },
  target: { type: "role", id: "1" },
  changes: { name: [null, "Staff"] }
}

const records = [
  ["AuditEntry", AuditEntry, auditEntry, { actor: { kind: "somebody" } }],
  ["AuditEntry's target", AuditEntry, auditEntry, { target: { type: "planet", id: "1" } }],
  [
    "MemberRecord",
    MemberRecord,
    {
      id: "m-1",
      organizationId: "default",
      username: "ada",
      email: "ada@example.com",
      emailVerified: false,
      passwordHash: "$scrypt$...",
      activestatus: true,
      accountActiveStatus: true,
      sessionEpoch: 0,
      roleId: 1,
      createdAt: at
    },
    { sessionEpoch: 0.5 }
  ],
  [
    "Role",
    Role,
    { id: 1, name: "Staff", roleKey: "staff", activeStatus: true, createdAt: at },
    { roleKey: "Staff" }
  ],
  [
    "RolePermissionDetail",
    RolePermissionDetail,
    { id: 1, roleId: 1, permissionIds: [1, 2], updatedAt: at },
    { permissionIds: [1.5] }
  ],
  [
    "Session",
    Session,
    {
      tokenHash: hash,
      id: "ses_1",
      memberId: "m-1",
      organizationId: "default",
      memberEpoch: 0,
      createdAt: at,
      lastSeenAt: at,
      expiresAt: at,
      userAgent: "Firefox",
      address: null,
      mfaPending: false,
      amr: ["pwd", "otp", "mfa"],
      authTime: at
    },
    { amr: ["password"] }
  ],
  [
    "Subscription",
    Subscription,
    {
      id: "sub_1",
      organizationId: "default",
      planId: "team",
      planName: "Team",
      price: { amountMinor: 1999, currency: "EUR" },
      status: "active",
      history: [{ status: "pending", at }],
      recentEventIds: ["evt_1"],
      version: 2,
      createdAt: at,
      updatedAt: at
    },
    { history: [{ status: "lost", at }] }
  ],
  [
    "InboxEntry",
    InboxEntry,
    { eventId: "evt_1", eventType: "customer.created", payload: "{}", receivedAt: at, outcome: "ignored" },
    { outcome: "forgotten" }
  ],
  [
    "NewRole",
    NewRole,
    { name: "Staff", roleKey: "staff", activeStatus: true, createdAt: at },
    { name: " Staff" }
  ],
  [
    "Plan (the operator's catalog file)",
    Plan,
    { planId: "team", planName: "Team", price: { amountMinor: 1999, currency: "EUR" } },
    { price: { amountMinor: 19.99, currency: "EUR" } }
  ],
  [
    "StoredResponse",
    StoredResponse,
    { status: 200, headers: [{ name: "content-type", value: "application/json" }], body: "{}" },
    { headers: [{ name: "content-type" }] }
  ]
] as const

describe("stored records", () => {
  it.each(records)("%s decodes when whole and refuses a broken field", (_, schema, stored, broken) => {
    const decode = Schema.decodeUnknownExit(schema as Schema.Codec<unknown, unknown>)
    const whole = decode(stored)
    assert.isTrue(Exit.isSuccess(whole) && whole.value instanceof schema, "whole, as the record class")
    assert.isTrue(Exit.isFailure(decode({ ...stored, ...broken })), "broken")
  })

  it("an audit cursor holds a whole position", () => {
    const cursorOf = (position: object) => btoa(JSON.stringify(position)).replaceAll("=", "")
    assert.isTrue(Exit.isSuccess(Schema.decodeUnknownExit(AuditCursor)(cursorOf({ at: 1, id: "aud_1" }))))
    assert.isTrue(Exit.isFailure(Schema.decodeUnknownExit(AuditCursor)(cursorOf({ at: 1 }))))
  })

  it("a session's token hash is exactly 64 hexadecimal digits", () => {
    const isTokenHash = Schema.is(TokenHash)
    assert.isTrue(isTokenHash(hash))
    for (const bad of [`${hash}0`, `x${hash}`, hash.slice(1), hash.toUpperCase()]) {
      assert.isFalse(isTokenHash(bad), bad)
    }
  })
})
