import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import {
  acceptInvitation,
  addDomain,
  addMember,
  CurrentOrganization,
  createApiKey,
  createOrganization,
  ensureOwner,
  inviteMember,
  logIn,
  RateLimited,
  requestPasswordReset,
  resetPassword,
  SsoRequired,
  updateOrganization,
  verifyDomain
} from "../../core/index.ts"
import { invitationMailbox } from "../support/invitation-mail.ts"
import { mailbox } from "../support/mailbox.ts"
import {
  logInAs,
  master,
  memberInput,
  password,
  provideRoster,
  refusal,
  roleWith
} from "../support/roster.ts"

const client = "192.0.2.61"
/** Lets what a request forked off its path (the reset mail) run. */
const settle = Effect.forEach([1, 2, 3, 4, 5, 6, 7, 8], () => Effect.yieldNow, { discard: true })

/** Acme, holding `acme.example` verified and requiring single sign-on, with a `staff` role. */
const acmeRequiringSso = Effect.gen(function* () {
  const acme = yield* createOrganization(master, { name: "Acme", slug: "acme" })
  const inAcme = <A, E, R>(self: Effect.Effect<A, E, R>) =>
    Effect.provideService(self, CurrentOrganization, acme.id)
  const domain = yield* inAcme(addDomain(master, { domain: "acme.example" }))
  yield* inAcme(verifyDomain(master, domain.id, { verified: true }))
  yield* inAcme(updateOrganization(master, { ssoRequired: true }))
  const staff = yield* inAcme(roleWith("staff", ["team.read"]))
  return { acme, inAcme, staff }
})

describe("a password reset where single sign-on is required", () => {
  const box = mailbox()
  const resetOf = (to: string) =>
    Effect.gen(function* () {
      yield* requestPasswordReset({ email: to, client })
      yield* settle
      const token = box.sentTo(to, "password_reset").at(-1)?.token ?? Redacted.make("none sent")
      return resetPassword({ token, newPassword: Redacted.make("a brand new passphrase") })
    })

  it.effect("is refused to its members in its domains, not to its owners", () =>
    Effect.gen(function* () {
      const { inAcme, staff } = yield* acmeRequiringSso
      yield* inAcme(addMember(master, memberInput("cyd", staff.id, { email: "cyd@acme.example" })))
      assert.instanceOf(yield* refusal(yield* inAcme(resetOf("cyd@acme.example"))), SsoRequired)
      yield* inAcme(
        ensureOwner({ username: "own", email: "own@acme.example", password: Redacted.make(password) })
      )
      yield* yield* inAcme(resetOf("own@acme.example"))
      yield* inAcme(updateOrganization(master, { ssoRequired: false }))
      assert.isTrue("token" in (yield* logInAs("cyd")), "the refused reset changed nothing")
    }).pipe(provideRoster({ accountMail: box.accountMail }))
  )
})

describe("accepting an invitation where single sign-on is required", () => {
  const mailed = invitationMailbox()
  const invite = (email: string) =>
    Effect.gen(function* () {
      const { inAcme, staff } = yield* acmeRequiringSso
      const { token } = yield* inAcme(inviteMember(master, { email, roleId: staff.id }))
      return Option.getOrElse(token, () => mailed.sent.at(-1)?.token ?? Redacted.make(""))
    })

  it.effect("refuses a new account made with a password in its domains", () =>
    Effect.gen(function* () {
      const token = yield* invite("new@acme.example")
      const refused = yield* refusal(
        acceptInvitation(Option.none(), {
          token,
          client,
          username: "newcomer",
          password: Redacted.make(password)
        })
      )
      assert.instanceOf(refused, SsoRequired)
    }).pipe(provideRoster({ invitationMail: mailed.layer }))
  )

  it.effect("lets an existing account join from its own session, never by its password", () =>
    Effect.gen(function* () {
      yield* ensureOwner({ username: "ada", email: "ada@acme.example", password: Redacted.make(password) })
      const session = yield* logInAs("ada")
      const byPassword = yield* invite("ada@acme.example")
      const refused = yield* refusal(
        acceptInvitation(Option.none(), { token: byPassword, client, password: Redacted.make(password) })
      )
      assert.instanceOf(refused, SsoRequired)
      const joined = yield* acceptInvitation(Option.some(session.token), { token: byPassword, client })
      assert.strictEqual(joined.organization.slug, "acme")
    }).pipe(provideRoster({ invitationMail: mailed.layer }))
  )

  it.effect("refuses an existing account's password given beside an API key, which proves no person", () =>
    Effect.gen(function* () {
      yield* ensureOwner({ username: "ada", email: "ada@acme.example", password: Redacted.make(password) })
      const { key } = yield* createApiKey(master, { name: "Sync", permissions: ["team.read"] })
      const token = yield* invite("ada@acme.example")
      const refused = yield* refusal(
        acceptInvitation(Option.some(key), { token, client, password: Redacted.make(password) })
      )
      assert.instanceOf(refused, SsoRequired)
    }).pipe(provideRoster({ invitationMail: mailed.layer }))
  )

  it.effect("counts a wrong password with the login's, against the account", () =>
    Effect.gen(function* () {
      yield* ensureOwner({
        username: "bea",
        email: "bea@elsewhere.example",
        password: Redacted.make(password)
      })
      for (let tried = 0; tried < 2; tried++) {
        yield* refusal(logIn({ username: "bea", password: Redacted.make("wrong"), client }))
      }
      const { inAcme, staff } = yield* acmeRequiringSso
      const { token } = yield* inAcme(
        inviteMember(master, { email: "bea@elsewhere.example", roleId: staff.id })
      )
      const invited = Option.getOrElse(token, () => mailed.sent.at(-1)?.token ?? Redacted.make(""))
      const refused = yield* refusal(
        acceptInvitation(Option.none(), { token: invited, client, password: Redacted.make(password) })
      )
      assert.instanceOf(refused, RateLimited)
    }).pipe(provideRoster({ invitationMail: mailed.layer, throttle: { maxFailuresPerAccount: 2 } }))
  )
})
