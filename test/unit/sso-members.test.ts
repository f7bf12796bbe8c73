import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Option, Redacted } from "effect"
import {
  AlreadyMember,
  AuditLog,
  addDomain,
  addMember,
  CurrentOrganization,
  createOrganization,
  createSsoConnection,
  DuplicateEmail,
  DuplicateUsername,
  ensureOwner,
  exchangeSsoCode,
  type Forbidden,
  linkSsoIdentity,
  logIn,
  MemberId,
  MemberStore,
  type NotFound,
  provisionUser,
  RoleId,
  removeMember,
  SsoAccountConflict,
  SsoIdentity,
  SsoLoginStore,
  SsoRefused,
  setAccountStatus,
  UnknownRole,
  updateMember,
  updateRole,
  verifyDomain
} from "../../core/index.ts"
import { actorWith, master, memberInput, password, refusal } from "../support/roster.ts"
import { acmeSso, oidcCallback, outcomeOf, start } from "../support/sso-sign-in.ts"
import { clientSecret, provideSso, returnUrl } from "../support/sso-unit.ts"

interface SignedIn {
  readonly session: {
    readonly member: { readonly id: MemberId; readonly username: string; readonly email: string }
  }
}

/** Signs in through Acme's OIDC connection as whom the provider proves; the session's member. */
const signIn = (identity: { readonly sub: string; readonly email?: string }) =>
  Effect.gen(function* () {
    const finished = yield* oidcCallback(yield* start({ organization: "acme" }), identity)
    return ((yield* outcomeOf(finished)) as SignedIn).session.member
  })
const refusedAs = (identity: { readonly sub: string; readonly email?: string }) =>
  Effect.flip(signIn(identity))
const reasonOf = (error: unknown) => {
  assert.instanceOf(error, SsoRefused)
  return (error as SsoRefused).reason
}
const none = Option.none()

describe("who signs in through a connection", () => {
  it.effect("is the account an administrator linked the identity to, whatever the e-mail asserted", () =>
    Effect.gen(function* () {
      const { inAcme, memberRole, oidc } = yield* acmeSso
      const carol = yield* inAcme(
        addMember(master, memberInput("carol", memberRole.id, { email: "carol@old.example" }))
      )
      const { principal: admin } = yield* inAcme(
        actorWith("admin", ["admin.accounts.write", "organization.sso.write", "team.read"])
      )
      const linked = yield* inAcme(
        linkSsoIdentity(admin, carol.id, { connectionId: oidc.id, subject: "carol-sub" })
      )
      assert.deepStrictEqual(
        [linked.connectionId, linked.subject, linked.memberId],
        [oidc.id, "carol-sub", carol.id]
      )
      const [entry] = yield* inAcme((yield* AuditLog).page({ action: "sso.linked" }, 10))
      assert.deepStrictEqual(entry?.target, { type: "member", id: carol.id })
      assert.deepStrictEqual(entry?.changes, { connectionId: [null, oidc.id], subject: [null, "carol-sub"] })
      assert.deepStrictEqual(entry?.actor, {
        kind: "member",
        id: admin._tag === "Member" ? admin.member.id : ""
      })
      assert.strictEqual((yield* signIn({ sub: "carol-sub" })).id, carol.id)
      assert.strictEqual((yield* signIn({ sub: "carol-sub", email: "someone@acme.example" })).id, carol.id)
      yield* inAcme(linkSsoIdentity(admin, carol.id, { connectionId: oidc.id, subject: "carol-new" }))
      assert.strictEqual((yield* signIn({ sub: "carol-new" })).id, carol.id)
      assert.strictEqual(
        reasonOf(yield* refusedAs({ sub: "carol-sub" })),
        "no_email",
        "her old identity is no longer hers"
      )
      const dan = yield* inAcme(
        addMember(master, memberInput("dan", memberRole.id, { email: "dan@old.example" }))
      )
      const moved = yield* inAcme(
        refusal(linkSsoIdentity(admin, dan.id, { connectionId: oidc.id, subject: "carol-new" }))
      )
      assert.deepStrictEqual(moved, new SsoAccountConflict({ linkedToAnother: true }))
      const byOperator = yield* inAcme(
        refusal(linkSsoIdentity(master, dan.id, { connectionId: oidc.id, subject: "carol-new" }))
      )
      assert.instanceOf(byOperator, SsoAccountConflict, "not even the operator moves a link")
      assert.strictEqual(
        (yield* signIn({ sub: "carol-new" })).id,
        carol.id,
        "an identity signs in as the one account it was linked to first"
      )
      assert.lengthOf(yield* inAcme((yield* AuditLog).page({ action: "sso.linked" }, 10)), 2)
    }).pipe(provideSso())
  )

  it.effect(
    "is linked only by who may change accounts and single sign-on, within the ceiling, to a member and connection here",
    () =>
      Effect.gen(function* () {
        const { inAcme, memberRole, oidc } = yield* acmeSso
        const carol = yield* inAcme(addMember(master, memberInput("carol", memberRole.id)))
        const link = { connectionId: oidc.id, subject: "carol-sub" }
        const { principal: accountsOnly } = yield* inAcme(actorWith("accounts", ["admin.accounts.write"]))
        const { principal: ssoAndMembers } = yield* inAcme(
          actorWith("sso", ["organization.sso.write", "team.members.write", "team.read"])
        )
        for (const [actor, permission] of [
          [accountsOnly, "organization.sso.write"],
          [ssoAndMembers, "admin.accounts.write"]
        ] as const) {
          const refused = (yield* inAcme(refusal(linkSsoIdentity(actor, carol.id, link)))) as Forbidden
          assert.deepStrictEqual([refused.reason, refused.permission], ["missing_permission", permission])
        }
        const { principal: below } = yield* inAcme(
          actorWith("below", ["organization.sso.write", "admin.accounts.write"])
        )
        const aboveOwn = (yield* inAcme(refusal(linkSsoIdentity(below, carol.id, link)))) as Forbidden
        assert.strictEqual(
          aboveOwn.reason,
          "role_exceeds_own",
          "carol's role holds team.read, which it lacks"
        )
        const noMember = (yield* inAcme(
          refusal(linkSsoIdentity(master, MemberId.make("member-none"), link))
        )) as NotFound
        assert.deepStrictEqual(
          [noMember._tag, noMember.entity, noMember.id],
          ["NotFound", "member", "member-none"]
        )
        const elsewhere = yield* createSsoConnection(master, {
          kind: "oidc",
          issuer: "https://idp.example",
          clientId: "default",
          clientSecret: Redacted.make(clientSecret)
        })
        const foreign = (yield* inAcme(
          refusal(linkSsoIdentity(master, carol.id, { connectionId: elsewhere.id, subject: "carol-sub" }))
        )) as NotFound
        assert.deepStrictEqual([foreign.entity, foreign.id], ["sso_connection", elsewhere.id])
        assert.isTrue(Option.isNone(yield* (yield* SsoLoginStore).findIdentity(oidc.id, "carol-sub")))
        assert.lengthOf(yield* inAcme((yield* AuditLog).page({ action: "sso.linked" }, 10)), 0)
      }).pipe(provideSso())
  )

  it.effect(
    "is a member provisioned here by SCIM, by its externalId or its e-mail, linked from then on",
    () =>
      Effect.gen(function* () {
        const { inAcme, oidc } = yield* acmeSso
        const dave = yield* inAcme(
          provisionUser(
            master,
            { userName: "dave", externalId: "dave-ext", email: "dave@partner.example" },
            none
          )
        )
        const byExternalId = yield* signIn({ sub: "dave-ext" })
        assert.strictEqual(byExternalId.id, dave.id)
        const logins = yield* SsoLoginStore
        assert.strictEqual(
          Option.getOrThrow(yield* logins.findIdentity(oidc.id, "dave-ext")).accountId,
          dave.id
        )
        const erin = yield* inAcme(
          provisionUser(master, { userName: "erin", email: "erin@partner.example" }, none)
        )
        assert.strictEqual((yield* signIn({ sub: "erin-sub", email: "Erin@Partner.example" })).id, erin.id)
        const identity = Option.getOrThrow(yield* logins.findIdentity(oidc.id, "erin-sub"))
        assert.deepStrictEqual(
          [identity.accountId, identity.organizationId],
          [erin.id, yield* inAcme(CurrentOrganization)]
        )
        assert.strictEqual((yield* signIn({ sub: "erin-sub" })).id, erin.id, "linked: no e-mail needed")
        assert.lengthOf(
          yield* inAcme((yield* AuditLog).page({ action: "member.added", actorId: oidc.id }, 10)),
          0
        )
        const recorded = yield* inAcme((yield* AuditLog).page({ action: "sso.login" }, 10))
        assert.isTrue(
          recorded.length > 0 && recorded.every((entry) => entry.changes.justInTime === undefined),
          "nobody joined"
        )
      }).pipe(provideSso())
  )

  it.effect("is never an account with the e-mail that was not provisioned here", () =>
    Effect.gen(function* () {
      const { inAcme, memberRole, oidc } = yield* acmeSso
      yield* inAcme(addMember(master, memberInput("frank", memberRole.id, { email: "frank@acme.example" })))
      assert.instanceOf(
        yield* refusedAs({ sub: "frank-sub", email: "frank@acme.example" }),
        SsoAccountConflict
      )
      assert.isTrue(Option.isNone(yield* (yield* SsoLoginStore).findIdentity(oidc.id, "frank-sub")))
    }).pipe(provideSso())
  )

  it.effect("is refused without an e-mail, or with one in a domain the organisation did not verify", () =>
    Effect.gen(function* () {
      const { inAcme } = yield* acmeSso
      assert.strictEqual(reasonOf(yield* refusedAs({ sub: "s1" })), "no_email")
      assert.strictEqual(reasonOf(yield* refusedAs({ sub: "s2", email: "not an address" })), "no_email")
      assert.strictEqual(
        reasonOf(yield* refusedAs({ sub: "s3", email: "ivy@elsewhere.example" })),
        "foreign_domain"
      )
      const globex = yield* createOrganization(master, { name: "Globex", slug: "globex" })
      const theirs = yield* addDomain(master, { domain: "globex.example" }).pipe(
        Effect.provideService(CurrentOrganization, globex.id)
      )
      yield* verifyDomain(master, theirs.id, { verified: true }).pipe(
        Effect.provideService(CurrentOrganization, globex.id)
      )
      assert.strictEqual(
        reasonOf(yield* refusedAs({ sub: "s4", email: "ivy@globex.example" })),
        "foreign_domain"
      )
      const members = yield* inAcme((yield* MemberStore).findByLogin("ivy@globex.example"))
      assert.isTrue(Option.isNone(members))
    }).pipe(provideSso())
  )

  it.effect("made just in time, gets a free username from the e-mail", () =>
    Effect.gen(function* () {
      const { inAcme, memberRole } = yield* acmeSso
      yield* inAcme(
        addMember(master, memberInput("jo.ann", memberRole.id, { email: "jo@elsewhere.example" }))
      )
      const made = yield* signIn({ sub: "jo-sub", email: "jo.ann@acme.example" })
      assert.notStrictEqual(made.username, "jo.ann")
      assert.isTrue(made.username.startsWith("jo.ann"))
      assert.strictEqual(made.email, "jo.ann@acme.example")
    }).pipe(provideSso())
  )

  it.effect("is not made in an organisation with no role for them", () =>
    Effect.gen(function* () {
      const initech = yield* createOrganization(master, { name: "Initech", slug: "initech" })
      const inInitech = <A, E, R>(self: Effect.Effect<A, E, R>) =>
        Effect.provideService(self, CurrentOrganization, initech.id)
      const domain = yield* inInitech(addDomain(master, { domain: "initech.example" }))
      yield* inInitech(verifyDomain(master, domain.id, { verified: true }))
      yield* inInitech(
        createSsoConnection(master, {
          kind: "oidc",
          issuer: "https://idp.example",
          clientId: "c",
          clientSecret: Redacted.make(clientSecret)
        })
      )
      const finished = yield* oidcCallback(yield* start({ organization: "initech" }), {
        sub: "p",
        email: "peter@initech.example"
      })
      assert.strictEqual(reasonOf(yield* Effect.flip(outcomeOf(finished))), "connection")
      assert.isTrue(
        Option.isNone(yield* inInitech((yield* MemberStore).findByLogin("peter@initech.example")))
      )
    }).pipe(provideSso())
  )
})

describe("a member signing in who may not act", () => {
  it.effect(
    "is refused when deactivated here, or when their account is disabled before the code's exchange",
    () =>
      Effect.gen(function* () {
        const { inAcme, memberRole } = yield* acmeSso
        const kim = yield* signIn({ sub: "kim-sub", email: "kim@acme.example" })
        yield* inAcme(updateMember(master, kim.id, { activestatus: false }))
        const refused = (yield* refusedAs({ sub: "kim-sub" })) as Forbidden
        assert.deepStrictEqual([refused._tag, refused.reason], ["Forbidden", "inactive"])
        yield* inAcme(updateMember(master, kim.id, { activestatus: true }))
        const toProduct = yield* oidcCallback(
          yield* start({ organization: "acme", returnTo: `${returnUrl}/x` }),
          { sub: "kim-sub" }
        )
        const { code } = (yield* outcomeOf(toProduct)) as { code: Redacted.Redacted<string> }
        yield* inAcme(setAccountStatus(master, { memberId: kim.id, active: false }))
        assert.strictEqual(reasonOf(yield* refusal(exchangeSsoCode(code, "192.0.2.1"))), "inactive")
        yield* inAcme(setAccountStatus(master, { memberId: kim.id, active: true }))
        const again = (yield* outcomeOf(
          yield* oidcCallback(yield* start({ organization: "acme", returnTo: `${returnUrl}/x` }), {
            sub: "kim-sub"
          })
        )) as { code: Redacted.Redacted<string> }
        yield* inAcme(updateMember(master, kim.id, { activestatus: false }))
        assert.strictEqual(reasonOf(yield* refusal(exchangeSsoCode(again.code, "192.0.2.1"))), "inactive")
        yield* inAcme(updateMember(master, kim.id, { activestatus: true }))
        const third = (yield* outcomeOf(
          yield* oidcCallback(yield* start({ organization: "acme", returnTo: `${returnUrl}/x` }), {
            sub: "kim-sub"
          })
        )) as { code: Redacted.Redacted<string> }
        yield* inAcme(updateRole(master, memberRole.id, { activeStatus: false }))
        assert.strictEqual(
          reasonOf(yield* refusal(exchangeSsoCode(third.code, "192.0.2.1"))),
          "inactive",
          "her role was deactivated"
        )
      }).pipe(provideSso())
  )

  it.effect(
    "who left, comes back as a member again through an identity linked before, in a verified domain",
    () =>
      Effect.gen(function* () {
        const { inAcme, oidc } = yield* acmeSso
        yield* ensureOwner({
          username: "lena",
          email: "lena@acme.example",
          password: Redacted.make(password)
        })
        const lena = Option.getOrThrow(yield* (yield* MemberStore).findByLogin("lena"))
        yield* inAcme(
          ensureOwner({ username: "lena", email: "lena@acme.example", password: Redacted.make(password) })
        )
        yield* inAcme(
          ensureOwner({ username: "boss", email: "boss@acme.example", password: Redacted.make(password) })
        )
        yield* inAcme(linkSsoIdentity(master, lena.id, { connectionId: oidc.id, subject: "lena-sub" }))
        yield* inAcme(removeMember(master, lena.id))
        const back = yield* signIn({ sub: "lena-sub" })
        assert.strictEqual(back.id, lena.id, "the same account")
        assert.strictEqual(back.username, "lena", "with its own username")
        const [login] = yield* inAcme((yield* AuditLog).page({ action: "sso.login" }, 1))
        assert.deepStrictEqual(login?.changes.justInTime, [null, true])
        const byPassword = yield* logIn({
          username: "lena",
          password: Redacted.make(password),
          organization: "acme",
          client: "192.0.2.1"
        })
        assert.isTrue("token" in byPassword, "her password stays hers")
      }).pipe(provideSso())
  )

  it.effect("who left, is not made a member again outside a verified domain", () =>
    Effect.gen(function* () {
      const { inAcme, oidc } = yield* acmeSso
      yield* ensureOwner({
        username: "max",
        email: "max@elsewhere.example",
        password: Redacted.make(password)
      })
      const max = Option.getOrThrow(yield* (yield* MemberStore).findByLogin("max"))
      yield* inAcme(
        ensureOwner({ username: "max", email: "max@elsewhere.example", password: Redacted.make(password) })
      )
      yield* inAcme(
        ensureOwner({ username: "boss", email: "boss@acme.example", password: Redacted.make(password) })
      )
      yield* inAcme(linkSsoIdentity(master, max.id, { connectionId: oidc.id, subject: "max-sub" }))
      yield* inAcme(removeMember(master, max.id))
      assert.strictEqual(
        reasonOf(yield* refusedAs({ sub: "max-sub", email: "max@acme.example" })),
        "foreign_domain"
      )
      assert.isTrue(Option.isNone(yield* inAcme((yield* MemberStore).findById(max.id))))
    }).pipe(provideSso())
  )
})

describe("a member made just in time while the store changes", () => {
  const racing = (change: (store: MemberStore["Service"]) => Partial<MemberStore["Service"]>) =>
    Effect.gen(function* () {
      const store = yield* MemberStore
      return MemberStore.of({ ...store, ...change(store) })
    })

  it.effect(
    "is an account conflict when another made the account meanwhile, refused when its role went",
    () =>
      Effect.gen(function* () {
        yield* acmeSso
        for (const [failure, expected] of [
          [new DuplicateEmail({ email: "x" }), "SsoAccountConflict"],
          [new DuplicateUsername({ username: "x" }), "SsoAccountConflict"],
          [new UnknownRole({ roleId: RoleId.make(1) }), "SsoRefused"]
        ] as const) {
          const store = yield* racing(() => ({ insert: () => Effect.fail(failure) }))
          const refused = yield* refusedAs({ sub: "nat", email: "nat@acme.example" }).pipe(
            Effect.provideService(MemberStore, store)
          )
          assert.strictEqual((refused as { _tag: string })._tag, expected)
          if (refused instanceof SsoRefused) assert.strictEqual(refused.reason, "connection")
        }
        const removedAtOnce = yield* racing((store) => ({
          insert: (member, entry) =>
            Effect.andThen(store.insert(member, entry), store.remove(member.id, entry as never)).pipe(
              Effect.asVoid
            )
        }))
        const gone = yield* refusedAs({ sub: "nat", email: "nat@acme.example" }).pipe(
          Effect.provideService(MemberStore, removedAtOnce)
        )
        assert.strictEqual(reasonOf(gone), "inactive")
      }).pipe(provideSso())
  )

  it.effect("again is refused when the account joined meanwhile", () =>
    Effect.gen(function* () {
      const { inAcme, oidc } = yield* acmeSso
      const members = yield* MemberStore
      type Join = typeof members.join
      const joins: ReadonlyArray<Join> = [
        () => Effect.fail(new AlreadyMember({ email: "olga@acme.example" })),
        () => Effect.succeed(false),
        // Another request made her a member just before: this sign-in is not the one that did.
        (member, entry) =>
          Effect.andThen(
            members.join(member, entry),
            Effect.fail(new AlreadyMember({ email: member.email }))
          ),
        (member, entry) => Effect.as(members.join(member, entry), false)
      ]
      for (const [index, join] of joins.entries()) {
        const username = `olga${index}`
        yield* ensureOwner({ username, email: `${username}@acme.example`, password: Redacted.make(password) })
        const olga = Option.getOrThrow(yield* members.findByLogin(username))
        yield* (yield* SsoLoginStore).link(
          new SsoIdentity({
            connectionId: oidc.id,
            subject: `${username}-sub`,
            accountId: olga.id,
            organizationId: yield* inAcme(CurrentOrganization),
            createdAt: yield* DateTime.now
          })
        )
        const store = yield* racing(() => ({ join }))
        const refused = yield* refusedAs({ sub: `${username}-sub` }).pipe(
          Effect.provideService(MemberStore, store)
        )
        assert.strictEqual(reasonOf(refused), "inactive")
      }
    }).pipe(provideSso())
  )
})
