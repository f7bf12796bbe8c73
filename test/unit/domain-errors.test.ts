import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import { answeredOverHttp } from "../../adapters/http/to-problem.ts"
import { scimAnswered } from "../../adapters/scim/domain-failure.ts"
import {
  AccountShared,
  AlreadyMember,
  AlreadySubscribed,
  DuplicateEmail,
  DuplicateOrganizationSlug,
  DuplicateRoleKey,
  DuplicateUsername,
  EditConflict,
  ExpiryPassed,
  Forbidden,
  HashingBusy,
  InvalidCredentials,
  InvitationInvalid,
  LastOwner,
  MailUnavailable,
  MemberId,
  MissingField,
  NoDefaultRole,
  NotFound,
  PermissionId,
  PermissionInUse,
  PlanMismatch,
  PriceMismatch,
  ProviderUnavailable,
  RateLimited,
  RoleId,
  RoleInUse,
  SignupClosed,
  StoreUnavailable,
  SubscriptionActive,
  Unauthenticated,
  UnknownPermission,
  UnknownPlan,
  UnknownRole,
  WrongPassword,
  whyForbidden
} from "../../core/index.ts"
import * as Errors from "../../core/model/errors.ts"

/** One of each domain error, with the fields an adapter reads from it, under the tag it is caught by. */
const samples = [
  ["DuplicateEmail", DuplicateEmail, { email: "ada@example.com" }],
  ["DuplicateUsername", DuplicateUsername, { username: "ada" }],
  ["DuplicateRoleKey", DuplicateRoleKey, { roleKey: "staff" }],
  ["DuplicateOrganizationSlug", DuplicateOrganizationSlug, { slug: "acme" }],
  ["UnknownRole", UnknownRole, { roleId: RoleId.make(7) }],
  ["UnknownPermission", UnknownPermission, { permission: 99 }],
  [
    "PermissionInUse",
    PermissionInUse,
    { key: "projects.delete", holders: { roles: 1, apiKeys: 0, scimTokens: 2 } }
  ],
  ["UnknownPlan", UnknownPlan, { planId: "gold" }],
  ["PlanMismatch", PlanMismatch, { planId: "team", planName: "Team" }],
  ["PriceMismatch", PriceMismatch, { planId: "team", price: 19 }],
  ["AlreadySubscribed", AlreadySubscribed, { planId: "team" }],
  ["InvalidCredentials", InvalidCredentials, {}],
  ["EditConflict", EditConflict, { entity: "member", id: "m-1" }],
  ["RoleInUse", RoleInUse, { roleId: RoleId.make(3) }],
  ["LastOwner", LastOwner, {}],
  ["WrongPassword", WrongPassword, {}],
  ["RateLimited", RateLimited, { retryAfterSeconds: 30 }],
  ["HashingBusy", HashingBusy, { retryAfterSeconds: 1 }],
  ["StoreUnavailable", StoreUnavailable, {}],
  ["ProviderUnavailable", ProviderUnavailable, {}],
  ["SubscriptionActive", SubscriptionActive, { subscriptionId: "sub_1" }],
  ["SignupClosed", SignupClosed, {}],
  ["AccountShared", AccountShared, { memberId: MemberId.make("m-2") }],
  ["AlreadyMember", AlreadyMember, { email: "bob@example.com" }],
  ["InvitationInvalid", InvitationInvalid, {}],
  ["MailUnavailable", MailUnavailable, {}],
  ["NoDefaultRole", NoDefaultRole, {}],
  ["ExpiryPassed", ExpiryPassed, { field: "expiresAt" }]
] as const

const roundTrip = (
  schema: Schema.Top & { readonly DecodingServices: never; readonly EncodingServices: never },
  value: unknown
) => Schema.decodeUnknownSync(schema)(Schema.encodeUnknownSync(schema)(value))

describe("domain errors", () => {
  it("are each caught by their own tag and keep their fields through their schema", () => {
    for (const [tag, ErrorClass, fields] of samples) {
      const error = new (ErrorClass as new (fields: object) => { readonly _tag: string })(fields)
      assert.strictEqual(error._tag, tag)
      const encoded = Schema.encodeUnknownSync(ErrorClass as never)(error) as Record<string, unknown>
      assert.deepStrictEqual<unknown>({ ...encoded }, { _tag: tag, ...fields }, tag)
      assert.deepStrictEqual(roundTrip(ErrorClass as never, error), error, tag)
    }
    assert.strictEqual(new Set(samples.map(([tag]) => tag)).size, samples.length)
  })

  it("say what was not found, what was missing and why a credential was refused, each in its words", () => {
    const entities = [
      "member",
      "role",
      "role_permission_detail",
      "subscription",
      "organization",
      "invitation",
      "scim_token",
      "api_key"
    ] as const
    for (const entity of entities) {
      assert.deepStrictEqual(
        roundTrip(NotFound, new NotFound({ entity, id: "x" })),
        new NotFound({ entity, id: "x" })
      )
    }
    for (const field of ["username", "password", "email"] as const) {
      for (const purpose of ["new_account", "account_proof"] as const) {
        const missing = new MissingField({ field, purpose })
        assert.deepStrictEqual(roundTrip(MissingField, missing), missing)
      }
    }
    for (const reason of ["missing", "invalid", "expired"] as const) {
      assert.deepStrictEqual(
        roundTrip(Unauthenticated, new Unauthenticated({ reason })),
        new Unauthenticated({ reason })
      )
    }
  })

  it("refuse each reason with its own explanation, naming the permissions at stake", () => {
    const reasons = Object.keys(whyForbidden) as Array<Forbidden["reason"]>
    const explanations = Object.values(whyForbidden)
    assert.strictEqual(new Set(explanations).size, reasons.length, "no two reasons explained alike")
    for (const explanation of explanations) assert.isAbove(explanation.length, 20)
    for (const reason of reasons) {
      const refused = new Forbidden({
        reason,
        permission: "team.read",
        permissionIds: [PermissionId.make(1)]
      })
      assert.deepStrictEqual(roundTrip(Forbidden, refused), refused, reason)
    }
    assert.strictEqual(reasons.length, 19)
  })
})

describe("every domain error", () => {
  const classes = Object.values(Errors).filter(
    (value): value is typeof Errors.LastOwner =>
      typeof value === "function" && value.prototype instanceof Error
  )
  const tags = classes.map((error) => (error as unknown as { readonly identifier: string }).identifier)

  it("is answered over HTTP, but for what only SCIM meets", () => {
    assert.isAbove(tags.length, 35)
    const unanswered = tags.filter((tag) => !answeredOverHttp.has(tag))
    assert.deepStrictEqual(unanswered, ["NoDefaultRole"])
  })

  it("is answered by SCIM where a SCIM request meets it, and only there", () => {
    assert.deepStrictEqual(
      [...scimAnswered].filter((tag) => !tags.includes(tag)),
      []
    )
    for (const tag of ["NotFound", "DuplicateEmail", "NoDefaultRole", "Unauthenticated", "StoreUnavailable"])
      assert.isTrue(scimAnswered.has(tag), tag)
    for (const tag of ["DestinationRefused", "WebhookLimit", "UnknownPlan", "MemberRequired"])
      assert.isFalse(scimAnswered.has(tag), tag)
  })
})
