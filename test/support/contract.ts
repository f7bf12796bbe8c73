import { assert } from "@effect/vitest"
import { Context, DateTime, Effect, Equal, Layer, Option } from "effect"
import { hashToken } from "../../adapters/crypto/index.ts"
import { corePortsOn as corePortsOnStores, type RosterOptions } from "../../app/roster-layer.ts"
import {
  AccountRecord,
  CurrentOrganization,
  defaultOrganizationId,
  InboxEntry,
  MemberId,
  MemberRecord,
  Money,
  NewMember,
  NewRole,
  OrganizationId,
  PaymentEventId,
  PaymentInbox,
  PlanId,
  RoleId,
  RoleStore,
  Session,
  SessionId,
  StatusChange,
  Subscription,
  SubscriptionId,
  type SubscriptionStatus
} from "../../core/index.ts"
import { fastScrypt, masterKey, testPlans } from "./roster.ts"

/** `second` seconds after the epoch, where the test clock starts. */
export const at = (second: number) => DateTime.makeUnsafe(second * 1000)

/**
 * Runs `make(0)` … `make(count - 1)` concurrently. The in-memory stores answer synchronously, so
 * there they run one after the other; on a database they race for real.
 */
export const inParallel = <A, E, R>(count: number, make: (i: number) => Effect.Effect<A, E, R>) =>
  Effect.all(
    Array.from({ length: count }, (_, i) => make(i)),
    { concurrency: "unbounded" }
  )

/** Structural equality (`Equal`), as records read back from a database are new objects. */
export const assertEquals = <A>(actual: A, expected: A, message = "records are equal") =>
  assert.isTrue(
    Equal.equals(actual, expected),
    `${message}: got ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`
  )

/** The value of `option`; none fails the test. */
export const valueOf = <A>(option: Option.Option<A>, what = "a value"): A =>
  Option.isSome(option) ? option.value : assert.fail(`expected ${what}, got none`)

/** A member record as the use case would build it; `username@example.com` unless overridden. */
export const memberRecord = (
  username: string,
  overrides: Partial<ConstructorParameters<typeof NewMember>[0]> = {}
) =>
  new NewMember({
    id: MemberId.make(`member-${username}`),
    organizationId: defaultOrganizationId,
    username,
    email: `${username}@example.com`.toLowerCase(),
    emailVerified: false,
    passwordHash: "$scrypt$ln=10,r=8,p=1$c2FsdA$aGFzaA",
    activestatus: true,
    accountActiveStatus: true,
    sessionEpoch: 0,
    roleId: RoleId.make(1),
    createdAt: at(0),
    ...overrides
  })

/** What the store shows of a new member: the membership with its account, without the credential. */
export const viewOf = ({ passwordHash: _hash, ...member }: NewMember) => new MemberRecord(member)

/** The account of a new member. */
export const accountOf = (member: NewMember) =>
  new AccountRecord({
    id: member.id,
    username: member.username,
    email: member.email,
    emailVerified: member.emailVerified,
    passwordHash: member.passwordHash,
    accountActiveStatus: member.accountActiveStatus,
    createdAt: member.createdAt
  })

export const newRole = (roleKey: string, createdAt = at(0)) =>
  new NewRole({ name: `Role ${roleKey}`, roleKey, activeStatus: true, createdAt })

/** The organisation beside the default one, where a test's other tenant lives. */
export const otherOrganization = OrganizationId.make("org-other")
/** The roles `withRoles` makes: two of the default organisation (`memberRecord`'s is the first), one of the other's. */
export const roles = { first: RoleId.make(1), second: RoleId.make(2), others: RoleId.make(3) }

/**
 * `stores` with the roles of `roles` made (unless an earlier run on the same database made them): a
 * member is written only into a role its organisation has.
 */
export const withRoles = <Stores extends Layer.Layer<RoleStore, unknown, unknown>>(stores: Stores): Stores =>
  Layer.tap(stores, (context) =>
    Effect.gen(function* () {
      const store = Context.get(context, RoleStore)
      yield* store.insert(newRole("first"))
      yield* store.insert(newRole("second"))
      yield* Effect.provideService(store.insert(newRole("others")), CurrentOrganization, otherOrganization)
    }).pipe(
      Effect.catchTag("DuplicateRoleKey", () => Effect.void),
      Effect.orDie
    )
  ) as Stores

/** A session of `memberId` known by the hash of `token`, expiring an hour after it starts. */
export const sessionOf = (
  token: string,
  memberId: string,
  memberEpoch = 0,
  organizationId: OrganizationId = defaultOrganizationId
) =>
  new Session({
    tokenHash: hashToken(token),
    id: SessionId.make(`ses_${token}`),
    memberId: MemberId.make(memberId),
    organizationId,
    memberEpoch,
    createdAt: at(0),
    lastSeenAt: at(0),
    expiresAt: at(3600),
    userAgent: null,
    address: null,
    mfaPending: false,
    amr: ["pwd"],
    authTime: at(0)
  })

/** A Team subscription created at `second` in `status`, with a history that led there. */
export const subscriptionOf = (
  id: string,
  second: number,
  status: SubscriptionStatus = "pending",
  overrides: Partial<ConstructorParameters<typeof Subscription>[0]> = {}
) =>
  new Subscription({
    id: SubscriptionId.make(id),
    organizationId: defaultOrganizationId,
    planId: PlanId.make("team"),
    planName: "Team",
    price: new Money({ amountMinor: 1999, currency: "EUR" }),
    status,
    history: [
      new StatusChange({ status: "pending", at: at(second) }),
      ...(status === "pending" ? [] : [new StatusChange({ status, at: at(second + 1) })])
    ],
    recentEventIds: [],
    version: 1,
    createdAt: at(second),
    updatedAt: at(second),
    ...overrides
  })

/** The next version of `subscription`, as a writer that read it would propose it. */
export const nextVersion = (
  subscription: Subscription,
  changes: Partial<ConstructorParameters<typeof Subscription>[0]>
) =>
  new Subscription({
    ...subscription,
    ...changes,
    version: subscription.version + 1,
    updatedAt: DateTime.addDuration(subscription.updatedAt, "1 second")
  })

export const inboxEntryOf = (eventId: string, second = 0) =>
  new InboxEntry({
    eventId: PaymentEventId.make(eventId),
    eventType: "invoice.paid",
    payload: JSON.stringify({ id: eventId }),
    receivedAt: at(second)
  })

/**
 * Every port the use cases need, with `stores` holding the state: what `testRoster` provides in
 * memory, on any store kind.
 */
export const corePortsOn = <ROut, E, R>(
  stores: Layer.Layer<ROut, E, R>,
  options: Omit<RosterOptions, "plans" | "scrypt"> = {}
) => corePortsOnStores(stores, { plans: testPlans, scrypt: fastScrypt, masterKey, ...options })

/** What the inbox holds for `eventId`, read by a probe delivery; an unknown id fails the test. */
export const inboxEntryFor = (eventId: string) =>
  Effect.gen(function* () {
    const earlier = yield* (yield* PaymentInbox).receive(inboxEntryOf(eventId, 999))
    return valueOf(earlier, `an inbox entry for ${eventId}`)
  })
