import { type DateTime, Option, type Redacted, Schema, Struct } from "effect"
import {
  ApiKeyId,
  AuditEntry,
  BillingInterval,
  Currency,
  InvitationView,
  Member,
  type Organization,
  type Plan,
  type Principal,
  SecondFactorMethod,
  type Subscription,
  SubscriptionStatus,
  toMajorUnits
} from "../../core/index.ts"

/** A plan as clients see it: `price` in major units, exactly what `POST /pricing/subscribe` expects back. */
export const PlanView = Schema.Struct({
  planId: Schema.String,
  planName: Schema.String,
  price: Schema.Finite,
  currency: Currency,
  /** Present (true) for a plan billed per seat: `price` is then each seat's. */
  perSeat: Schema.optionalKey(Schema.Literal(true)),
  /** Present for a plan charged again and again: `price` is then each month's or year's. */
  interval: Schema.optionalKey(BillingInterval)
})

export const toPlanView = (plan: Plan): typeof PlanView.Type => ({
  planId: plan.planId,
  planName: plan.planName,
  price: toMajorUnits(plan.price),
  currency: plan.price.currency,
  ...(plan.perSeat === true ? { perSeat: true as const } : {}),
  ...(plan.interval === undefined ? {} : { interval: plan.interval })
})

/**
 * The public face of a subscription: no version counters, provider ids or event bookkeeping.
 * `checkoutUrl` while it waits for its payment at the provider, `seats` for a plan priced per
 * seat, `cancelAt` while it is `canceling`.
 */
export const SubscriptionView = Schema.Struct({
  id: Schema.String,
  status: SubscriptionStatus,
  planId: Schema.String,
  planName: Schema.String,
  price: Schema.Finite,
  currency: Currency,
  checkoutUrl: Schema.optionalKey(Schema.String),
  seats: Schema.optionalKey(Schema.Int),
  cancelAt: Schema.optionalKey(Schema.DateTimeUtc),
  history: Schema.Array(Schema.Struct({ status: SubscriptionStatus, at: Schema.DateTimeUtc })),
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc
})

export const toSubscriptionView = (subscription: Subscription): typeof SubscriptionView.Type => ({
  id: subscription.id,
  status: subscription.status,
  planId: subscription.planId,
  planName: subscription.planName,
  price: toMajorUnits(subscription.price),
  currency: subscription.price.currency,
  ...(subscription.status === "pending" && subscription.checkout !== undefined
    ? { checkoutUrl: subscription.checkout.url }
    : {}),
  ...(subscription.seats === undefined ? {} : { seats: subscription.seats }),
  ...(subscription.status === "canceling" && subscription.cancelAt !== undefined
    ? { cancelAt: subscription.cancelAt }
    : {}),
  history: subscription.history.map(({ status, at }) => ({ status, at })),
  createdAt: subscription.createdAt,
  updatedAt: subscription.updatedAt
})

/** How an answer names an organisation. */
export const OrganizationSummary = Schema.Struct({
  id: Schema.String,
  slug: Schema.String,
  name: Schema.String
}).annotate({ identifier: "roster/OrganizationSummary" })

export const toOrganizationSummary = (organization: Organization): typeof OrganizationSummary.Type => ({
  id: organization.id,
  slug: organization.slug,
  name: organization.name
})

/** One of the caller's memberships: where, in which role, and whether it is active. */
export const MembershipView = Schema.Struct({
  organization: OrganizationSummary,
  roleId: Schema.Int,
  activestatus: Schema.Boolean
})

export const toMembershipView = (membership: {
  readonly organization: Organization
  readonly roleId: number
  readonly activestatus: boolean
}): typeof MembershipView.Type => ({
  organization: toOrganizationSummary(membership.organization),
  roleId: membership.roleId,
  activestatus: membership.activestatus
})

export const LoginView = Schema.Struct({
  token: Schema.RedactedFromValue(Schema.String),
  expiresAt: Schema.DateTimeUtc,
  member: Member,
  /** The organisation the session acts on, for its whole life. */
  organization: OrganizationSummary
})

export const toLoginView = (session: {
  readonly token: Redacted.Redacted<string>
  readonly expiresAt: DateTime.Utc
  readonly member: Member
  readonly organization: Organization
}): typeof LoginView.Type => ({ ...session, organization: toOrganizationSummary(session.organization) })

/** A login's answer for an account with a second factor: no session yet, a challenge to complete. */
export const MfaChallengeView = Schema.Struct({
  mfaRequired: Schema.Literal(true),
  /** To send with a code to `POST /api/v1/auth/mfa/verify`, within five minutes and five tries. */
  challenge: Schema.RedactedFromValue(Schema.String),
  expiresAt: Schema.DateTimeUtc,
  /** The second factors the account holds, to offer: a TOTP code, a recovery code, a passkey. */
  methods: Schema.Array(SecondFactorMethod)
})

/** What a login answers: a session, or the challenge of an account with TOTP. */
export const LoginAnswerView = Schema.Union([LoginView, MfaChallengeView])

export const toLoginAnswer = (
  outcome: Parameters<typeof toLoginView>[0] | typeof MfaChallengeView.Type
): typeof LoginAnswerView.Type => ("token" in outcome ? toLoginView(outcome) : outcome)

/** An API key as `auth/me` names it: what it is, and which of the organisation's keys. */
export const ApiKeyCaller = Schema.Struct({
  kind: Schema.Literal("api_key"),
  id: ApiKeyId,
  name: Schema.String
})

/**
 * Who the caller is (the operator's master key, open local mode, a signed-in member, or an API key,
 * which is named by its id and name), and where it acts.
 */
export const WhoAmIView = Schema.Struct({
  principal: Schema.Union([Schema.Literals(["master", "open_local", "member", "scim"]), ApiKeyCaller]),
  member: Schema.optionalKey(Member),
  organization: OrganizationSummary,
  permissions: Schema.Array(Schema.String)
})

export const MessageView = Schema.Struct({ message: Schema.String })

/** An access token: a JWT the product verifies with the published keys, and how long it lives. */
export const AccessTokenView = Schema.Struct({
  accessToken: Schema.RedactedFromValue(Schema.String),
  tokenType: Schema.Literal("Bearer"),
  expiresIn: Schema.Int.annotate({ description: "Seconds until the token expires" })
}).annotate({ identifier: "roster/AccessToken" })

/**
 * A secret answered once: `null` in an Idempotency-Key replay of the answer, which is kept without
 * it (see `ShownOnce`).
 */
export const ShownOnceSecret = Schema.NullOr(Schema.RedactedFromValue(Schema.String)).annotate({
  description: "Shown in this answer only; null when the answer is an Idempotency-Key replay"
})

/** A new invitation; its token only when the deployment sends no mail, for the creator to deliver. */
export const InvitationCreatedView = Schema.Struct({
  ...InvitationView.fields,
  token: Schema.optionalKey(ShownOnceSecret)
})

export const toInvitationCreatedView = (created: {
  readonly invitation: InvitationView
  readonly token: Option.Option<Redacted.Redacted<string>>
}): typeof InvitationCreatedView.Type =>
  Option.match(created.token, {
    onNone: () => ({ ...created.invitation }),
    onSome: (token) => ({ ...created.invitation, token })
  })

const principalKinds = { Master: "master", OpenLocal: "open_local", Member: "member", Scim: "scim" } as const

export const toWhoAmIView = (
  principal: Principal,
  organization: Organization,
  permissions: ReadonlyArray<string>
): typeof WhoAmIView.Type => ({
  principal:
    principal._tag === "ApiKey"
      ? { kind: "api_key", id: principal.keyId, name: principal.name }
      : principalKinds[principal._tag],
  ...(principal._tag === "Member" ? { member: principal.member } : {}),
  organization: toOrganizationSummary(organization),
  permissions
})

/** An audit entry as published: what the record keeps to answer retries (`requestKey`) stays in it. */
export const AuditEntryView = Schema.Struct(Struct.omit(AuditEntry.fields, ["requestKey"])).annotate({
  identifier: "roster/AuditEntry"
})
