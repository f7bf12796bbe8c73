import { Effect, Exit, Option, Redacted } from "effect"
import { inMemoryRoster, type RosterOptions } from "../../app/roster-layer.ts"
import {
  AddMemberInput,
  addMember,
  addRole,
  authenticate,
  CurrentOrganization,
  createOrganization,
  ensureOwner,
  grantPermission,
  type LogInInput,
  logIn,
  Money,
  type PermissionKey,
  Plan,
  PlanId,
  type Principal,
  permissionIdOf,
  RoleId
} from "../../core/index.ts"

/** Cheap scrypt parameters for speed; the production defaults have a test of their own. */
export const fastScrypt = { logN: 10, blockSize: 8, parallelism: 1 }

export const testPlans = [
  new Plan({
    planId: PlanId.make("free"),
    planName: "Free",
    price: new Money({ amountMinor: 0, currency: "EUR" })
  }),
  new Plan({
    planId: PlanId.make("team"),
    planName: "Team",
    price: new Money({ amountMinor: 1999, currency: "EUR" }),
    providerPriceId: "price_team"
  }),
  new Plan({
    planId: PlanId.make("business"),
    planName: "Business",
    price: new Money({ amountMinor: 9900, currency: "EUR" }),
    providerPriceId: "price_business"
  })
]

/** A plan billed per seat, 5 EUR each: tests of seats add it to `testPlans`. */
export const seatPlan = new Plan({
  planId: PlanId.make("seats"),
  planName: "Seats",
  price: new Money({ amountMinor: 500, currency: "EUR" }),
  providerPriceId: "price_seats",
  perSeat: true
})

export const masterKey = "test-master-key-with-enough-entropy"

export const testRoster = (options: RosterOptions = {}) =>
  inMemoryRoster({ plans: testPlans, masterKey, scrypt: fastScrypt, ...options })

export const provideRoster =
  (options: RosterOptions = {}) =>
  <A, E, R>(self: Effect.Effect<A, E, R>) =>
    Effect.provide(self, testRoster(options))

export const master: Principal = { _tag: "Master" }

export const password = "correct horse battery staple"

/** Creates a role holding exactly `permissions`, as the operator would. */
export const roleWith = Effect.fnUntraced(function* (
  roleKey: string,
  permissions: ReadonlyArray<PermissionKey>
) {
  const role = yield* addRole(master, { name: roleKey, roleKey })
  for (const key of permissions) {
    yield* grantPermission(master, { roleId: role.id, permissionId: permissionIdOf(key) })
  }
  return role
})

export const memberInput = (
  username: string,
  roleId: number,
  overrides: Partial<Record<string, unknown>> = {}
) =>
  AddMemberInput.make({
    username,
    email: `${username}@example.com`,
    password: Redacted.make(password),
    activestatus: true,
    roleId: RoleId.make(roleId),
    ...overrides
  } as AddMemberInput)

/** Logs in as `username` with the password every test member is given. */
/** A login that must start a session (the account has no TOTP): the session; a challenge fails the test. */
export const logInToSession = (input: LogInInput) =>
  Effect.flatMap(logIn(input), (outcome) =>
    "token" in outcome
      ? Effect.succeed(outcome)
      : Effect.die(new Error("Expected a session, got an MFA challenge"))
  )

export const logInAs = (username: string) =>
  logInToSession({ username, password: Redacted.make(password), client: "127.0.0.1" })

/** A member of a new role with `permissions`, logged in: returns the member, the role and the token. */
export const signedInMember = Effect.fnUntraced(function* (
  username: string,
  permissions: ReadonlyArray<PermissionKey>
) {
  const role = yield* roleWith(`${username}-role`, permissions)
  const member = yield* addMember(master, memberInput(username, role.id))
  const session = yield* logInAs(username)
  return { member, role, token: session.token }
})

/** A signed-in member of a fresh role holding `permissions`, authenticated into a principal to act as. */
export const actorWith = Effect.fnUntraced(function* (
  username: string,
  permissions: ReadonlyArray<PermissionKey>
) {
  const signedIn = yield* signedInMember(username, permissions)
  const principal = yield* authenticate(Option.some(signedIn.token))
  return { ...signedIn, principal }
})

/** The error an exit failed with; none for a success. */
export const failureOf = <A, E>(exit: Exit.Exit<A, E>) =>
  Exit.isFailure(exit) ? Option.getOrUndefined(Exit.findErrorOption(exit)) : undefined

/** The error `effect` fails with when run; none when it succeeds. */
export const refusal = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.map(Effect.exit(effect), failureOf)

/** A role holding team.read alone (what identity providers fill by default), and Ada and Bob in it. */
export const readersAdaAndBob = Effect.gen(function* () {
  const reader = yield* roleWith("reader", ["team.read"])
  const ada = yield* addMember(master, memberInput("ada", reader.id))
  const bob = yield* addMember(master, memberInput("bob", reader.id))
  return { reader, ada, bob }
})

/**
 * Ada and Bob, readers here; Ada an owner in Acme too (her account is shared), and an
 * administrator here who may change members but is bound to this organisation.
 */
export const adaSharedWithAcme = Effect.gen(function* () {
  const { ada, bob } = yield* readersAdaAndBob
  const acme = yield* createOrganization(master, { name: "Acme", slug: "acme" })
  yield* ensureOwner({ username: "ada", email: "ada@example.com", password: Redacted.make(password) }).pipe(
    Effect.provideService(CurrentOrganization, acme.id)
  )
  const { principal: admin } = yield* actorWith("admin", ["team.read", "team.members.write"])
  return { ada, bob, admin }
})
