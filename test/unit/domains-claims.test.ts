import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Layer, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import {
  addDomain,
  addMember,
  CurrentOrganization,
  createOrganization,
  DnsRecords,
  DomainId,
  DomainStore,
  DomainTaken,
  DomainUnverified,
  type Forbidden,
  getDomain,
  listDomains,
  logIn,
  NotFound,
  removeDomain,
  SsoRequired,
  updateOrganization,
  verifyDomain
} from "../../core/index.ts"
import { assertUnrecorded, theEntryOf } from "../support/audit.ts"
import { actorWith, master, memberInput, password, refusal, roleWith } from "../support/roster.ts"
import { acme, PublishedTxt, provideSso } from "../support/sso-unit.ts"

const ssoWriter = ["organization.sso.write"] as const

/** Acme, and Ada there, who may change its single sign-on. */
const acmeWithAdmin = Effect.gen(function* () {
  const world = yield* acme
  const { principal } = yield* world.inAcme(actorWith("ada", [...ssoWriter]))
  return { ...world, admin: principal }
})

const publish = (name: string, values: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    ;(yield* PublishedTxt).set(name, values)
  })

describe("claiming a domain", () => {
  it.effect("is for who may change single sign-on, and changes nothing for anyone else", () =>
    Effect.gen(function* () {
      const { inAcme, admin } = yield* acmeWithAdmin
      const { principal: reader } = yield* inAcme(actorWith("bob", ["team.read", "organization.write"]))
      const refused = (yield* inAcme(refusal(addDomain(reader, { domain: "acme.example" })))) as Forbidden
      assert.strictEqual(refused.reason, "missing_permission")
      assert.strictEqual(refused.permission, "organization.sso.write")
      const reads: ReadonlyArray<Effect.Effect<unknown, unknown, DomainStore>> = [
        listDomains(reader),
        getDomain(reader, DomainId.make("domain-1"))
      ]
      for (const read of reads) {
        assert.strictEqual(((yield* inAcme(refusal(read))) as Forbidden).permission, "organization.sso.write")
      }
      assert.lengthOf((yield* inAcme(listDomains(admin))).items, 0)
    }).pipe(provideSso())
  )

  it.effect("answers it pending, normalised, with the TXT record to publish, and records it", () =>
    Effect.gen(function* () {
      const { inAcme, admin } = yield* acmeWithAdmin
      yield* TestClock.adjust("1 hour")
      const { result: claimed, entry } = yield* inAcme(
        theEntryOf(addDomain(admin, { domain: " ACME.Example. " }))
      )
      assert.strictEqual(claimed.domain, "acme.example")
      assert.strictEqual(claimed.status, "pending")
      assert.strictEqual(claimed.txtName, "_roster-challenge.acme.example")
      assert.isAtLeast(claimed.txtValue.length, 32)
      assert.isTrue(claimed.txtValue.startsWith("rsd_"), "a domain challenge's token")
      assert.isNull(claimed.verifiedAt)
      assert.strictEqual(DateTime.toEpochMillis(claimed.createdAt), 3_600_000)
      assert.notProperty(claimed, "organizationId")
      assert.strictEqual(entry.action, "domain.created")
      assert.deepStrictEqual(entry.actor, {
        kind: "member",
        id: admin._tag === "Member" ? admin.member.id : ""
      })
      assert.deepStrictEqual(entry.target, { type: "domain", id: claimed.id })
      assert.deepStrictEqual(entry.changes, { domain: [null, "acme.example"], status: [null, "pending"] })
      const other = yield* inAcme(addDomain(admin, { domain: "acme.test" }))
      assert.notStrictEqual(other.txtValue, claimed.txtValue, "each claim its own value")
      assert.notStrictEqual(other.id, claimed.id)
      assert.deepStrictEqual(yield* inAcme(getDomain(admin, claimed.id)), claimed)
    }).pipe(provideSso())
  )

  it.effect("refuses a domain claimed here already, or verified by any organisation, adding nothing", () =>
    Effect.gen(function* () {
      const { inAcme, admin } = yield* acmeWithAdmin
      yield* inAcme(addDomain(admin, { domain: "acme.example" }))
      const twice = yield* inAcme(assertUnrecorded(refusal(addDomain(admin, { domain: "Acme.example" }))))
      assert.instanceOf(twice, DomainTaken)
      assert.strictEqual((twice as DomainTaken).domain, "acme.example")
      const globex = yield* createOrganization(master, { name: "Globex", slug: "globex" })
      const inGlobex = <A, E, R>(self: Effect.Effect<A, E, R>) =>
        Effect.provideService(self, CurrentOrganization, globex.id)
      const theirs = yield* inGlobex(addDomain(master, { domain: "globex.example" }))
      yield* inGlobex(verifyDomain(master, theirs.id, { verified: true }))
      const taken = yield* inAcme(assertUnrecorded(refusal(addDomain(admin, { domain: "globex.example" }))))
      assert.strictEqual((taken as DomainTaken).domain, "globex.example")
      const ownVerified = yield* inGlobex(refusal(addDomain(master, { domain: "globex.example" })))
      assert.instanceOf(ownVerified, DomainTaken, "its own verified domain too: it holds it already")
      assert.lengthOf((yield* inAcme(listDomains(admin))).items, 1)
    }).pipe(provideSso())
  )
})

describe("verifying a domain", () => {
  it.effect("holds when its TXT record has the value, among others; records the change once", () =>
    Effect.gen(function* () {
      const { inAcme, admin } = yield* acmeWithAdmin
      const claimed = yield* inAcme(addDomain(admin, { domain: "acme.example" }))
      yield* publish(claimed.txtName, ["v=spf1 -all", claimed.txtValue])
      yield* TestClock.adjust("2 hours")
      const { result: verified, entry } = yield* inAcme(theEntryOf(verifyDomain(admin, claimed.id)))
      assert.strictEqual(verified.status, "verified")
      assert.strictEqual(DateTime.toEpochMillis(verified.verifiedAt ?? DateTime.makeUnsafe(0)), 7_200_000)
      assert.strictEqual(entry.action, "domain.verified")
      assert.deepStrictEqual(entry.target, { type: "domain", id: claimed.id })
      assert.deepStrictEqual(entry.changes, {
        domain: ["acme.example", "acme.example"],
        status: ["pending", "verified"]
      })
      assert.strictEqual((yield* inAcme(getDomain(admin, claimed.id))).status, "verified")
      yield* TestClock.adjust("1 hour")
      const again = yield* inAcme(assertUnrecorded(verifyDomain(admin, claimed.id)))
      assert.deepStrictEqual(again, verified, "verified already: nothing changes")
    }).pipe(provideSso())
  )

  it.effect("names what DNS holds when it lacks the value, and leaves the domain pending", () =>
    Effect.gen(function* () {
      const { inAcme, admin } = yield* acmeWithAdmin
      const claimed = yield* inAcme(addDomain(admin, { domain: "acme.example" }))
      const none = yield* inAcme(assertUnrecorded(refusal(verifyDomain(admin, claimed.id))))
      assert.instanceOf(none, DomainUnverified)
      assert.deepStrictEqual(
        [
          (none as DomainUnverified).domain,
          (none as DomainUnverified).txtName,
          (none as DomainUnverified).found
        ],
        ["acme.example", "_roster-challenge.acme.example", []]
      )
      yield* publish(claimed.txtName, [`${claimed.txtValue}x`, "other"])
      const wrong = (yield* inAcme(refusal(verifyDomain(admin, claimed.id)))) as DomainUnverified
      assert.deepStrictEqual(wrong.found, [`${claimed.txtValue}x`, "other"])
      yield* publish(`_roster-challenge.other.example`, [claimed.txtValue])
      assert.instanceOf(yield* inAcme(refusal(verifyDomain(admin, claimed.id))), DomainUnverified)
      assert.strictEqual((yield* inAcme(getDomain(admin, claimed.id))).status, "pending")
    }).pipe(provideSso())
  )

  it.effect("without DNS only on the operator's word; a member's word is refused", () =>
    Effect.gen(function* () {
      const { inAcme, admin } = yield* acmeWithAdmin
      const claimed = yield* inAcme(addDomain(admin, { domain: "acme.example" }))
      const refused = (yield* inAcme(
        refusal(verifyDomain(admin, claimed.id, { verified: true }))
      )) as Forbidden
      assert.strictEqual(refused.reason, "operator_only")
      assert.strictEqual((yield* inAcme(getDomain(admin, claimed.id))).status, "pending")
      const { entry } = yield* inAcme(theEntryOf(verifyDomain(master, claimed.id, { verified: true })))
      assert.deepStrictEqual(entry.actor, { kind: "master" })
      assert.strictEqual((yield* inAcme(getDomain(admin, claimed.id))).status, "verified")
      const { principal: reader } = yield* inAcme(actorWith("bob", ["team.read"]))
      const other = yield* inAcme(addDomain(admin, { domain: "acme.test" }))
      const noPermission = (yield* inAcme(refusal(verifyDomain(reader, other.id)))) as Forbidden
      assert.strictEqual(noPermission.permission, "organization.sso.write")
    }).pipe(provideSso())
  )

  it.effect("is refused when another organisation verified the domain meanwhile", () =>
    Effect.gen(function* () {
      const { inAcme, admin } = yield* acmeWithAdmin
      const ours = yield* inAcme(addDomain(admin, { domain: "shared.example" }))
      const globex = yield* createOrganization(master, { name: "Globex", slug: "globex" })
      const inGlobex = <A, E, R>(self: Effect.Effect<A, E, R>) =>
        Effect.provideService(self, CurrentOrganization, globex.id)
      const theirs = yield* inGlobex(addDomain(master, { domain: "shared.example" }))
      yield* inGlobex(verifyDomain(master, theirs.id, { verified: true }))
      const taken = yield* inAcme(
        assertUnrecorded(refusal(verifyDomain(master, ours.id, { verified: true })))
      )
      assert.instanceOf(taken, DomainTaken)
      assert.strictEqual((yield* inAcme(getDomain(admin, ours.id))).status, "pending")
    }).pipe(provideSso())
  )

  it.effect("of an unknown id, or another organisation's, is NotFound", () =>
    Effect.gen(function* () {
      const { inAcme, admin } = yield* acmeWithAdmin
      const unknown = (yield* inAcme(refusal(verifyDomain(master, DomainId.make("domain-none"))))) as NotFound
      assert.deepStrictEqual(
        [unknown._tag, unknown.entity, unknown.id],
        ["NotFound", "domain", "domain-none"]
      )
      const elsewhere = yield* addDomain(master, { domain: "default.example" })
      for (const attempt of [
        verifyDomain(admin, elsewhere.id),
        getDomain(admin, elsewhere.id),
        removeDomain(admin, elsewhere.id)
      ]) {
        const refused = (yield* inAcme(refusal(attempt))) as NotFound
        assert.deepStrictEqual(
          [refused._tag, refused.entity, refused.id],
          ["NotFound", "domain", elsewhere.id]
        )
      }
      assert.strictEqual((yield* getDomain(master, elsewhere.id)).status, "pending")
    }).pipe(provideSso())
  )

  it.effect("of a domain removed while DNS was read is NotFound, and records nothing", () =>
    Effect.gen(function* () {
      const { inAcme, admin } = yield* acmeWithAdmin
      const claimed = yield* inAcme(addDomain(admin, { domain: "acme.example" }))
      const removing = Layer.effect(
        DnsRecords,
        Effect.gen(function* () {
          const context = yield* Effect.context<Effect.Services<ReturnType<typeof removeDomain>>>()
          return DnsRecords.of({
            txt: () =>
              inAcme(removeDomain(master, claimed.id)).pipe(
                Effect.orDie,
                Effect.as([claimed.txtValue]),
                Effect.provide(context)
              )
          })
        })
      )
      const gone = yield* inAcme(refusal(verifyDomain(admin, claimed.id).pipe(Effect.provide(removing))))
      assert.instanceOf(gone, NotFound)
      assert.lengthOf((yield* inAcme(listDomains(admin))).items, 0)
    }).pipe(provideSso())
  )
})

describe("the organisation's domains", () => {
  it.effect("are listed oldest first, a page at a time, its own only", () =>
    Effect.gen(function* () {
      const { inAcme, admin } = yield* acmeWithAdmin
      const first = yield* inAcme(addDomain(admin, { domain: "one.example" }))
      yield* TestClock.adjust("1 second")
      const second = yield* inAcme(addDomain(admin, { domain: "two.example" }))
      yield* TestClock.adjust("1 second")
      const third = yield* inAcme(addDomain(admin, { domain: "three.example" }))
      yield* addDomain(master, { domain: "default.example" })
      const all = yield* inAcme(listDomains(admin))
      assert.deepStrictEqual(
        all.items.map(({ id }) => id),
        [first.id, second.id, third.id]
      )
      assert.isTrue(Option.isNone(all.next))
      const page = yield* inAcme(listDomains(admin, { limit: 2 }))
      assert.deepStrictEqual(
        page.items.map(({ id }) => id),
        [first.id, second.id]
      )
      assert.deepStrictEqual(page.next, Option.some({ createdAt: second.createdAt, id: second.id }))
      const rest = yield* inAcme(
        listDomains(admin, { limit: 2, after: { createdAt: second.createdAt, id: second.id } })
      )
      assert.deepStrictEqual(
        rest.items.map(({ id }) => id),
        [third.id]
      )
      assert.isTrue(Option.isNone(rest.next))
    }).pipe(provideSso())
  )

  it.effect("give a domain up with its record; another organisation may claim it then", () =>
    Effect.gen(function* () {
      const { inAcme, admin } = yield* acmeWithAdmin
      const claimed = yield* inAcme(addDomain(admin, { domain: "acme.example" }))
      yield* inAcme(verifyDomain(master, claimed.id, { verified: true }))
      assert.instanceOf(yield* refusal(addDomain(master, { domain: "acme.example" })), DomainTaken)
      const { result: removed, entry } = yield* inAcme(theEntryOf(removeDomain(admin, claimed.id)))
      assert.strictEqual(removed.id, claimed.id)
      assert.strictEqual(removed.status, "verified")
      assert.strictEqual(entry.action, "domain.deleted")
      assert.deepStrictEqual(entry.target, { type: "domain", id: claimed.id })
      assert.deepStrictEqual(entry.changes, { domain: ["acme.example", null], status: ["verified", null] })
      assert.instanceOf(yield* inAcme(refusal(getDomain(admin, claimed.id))), NotFound)
      assert.instanceOf(yield* inAcme(refusal(removeDomain(admin, claimed.id))), NotFound)
      const { principal: reader } = yield* inAcme(actorWith("bob", ["team.read"]))
      assert.strictEqual(
        ((yield* inAcme(refusal(removeDomain(reader, claimed.id)))) as Forbidden).permission,
        "organization.sso.write"
      )
      assert.strictEqual((yield* addDomain(master, { domain: "acme.example" })).status, "pending")
    }).pipe(provideSso())
  )
})

describe("giving up a domain another request removed first", () => {
  it.effect("is NotFound", () =>
    Effect.gen(function* () {
      const { inAcme, admin } = yield* acmeWithAdmin
      const claimed = yield* inAcme(addDomain(admin, { domain: "acme.example" }))
      const store = yield* DomainStore
      const racing = DomainStore.of({
        ...store,
        remove: (id, entry) => Effect.andThen(store.remove(id, entry), store.remove(id, entry))
      })
      const late = (yield* inAcme(
        refusal(removeDomain(admin, claimed.id).pipe(Effect.provideService(DomainStore, racing)))
      )) as NotFound
      assert.deepStrictEqual([late._tag, late.entity, late.id], ["NotFound", "domain", claimed.id])
    }).pipe(provideSso())
  )
})

describe("an organisation holding its domains to single sign-on", () => {
  /** Acme requiring single sign-on, holding `acme.example` verified, and Cyd, a member there. */
  const acmeRequiringSso = Effect.gen(function* () {
    const world = yield* acme
    const { inAcme, memberRole } = world
    const claimed = yield* inAcme(addDomain(master, { domain: "acme.example" }))
    yield* inAcme(verifyDomain(master, claimed.id, { verified: true }))
    yield* inAcme(updateOrganization(master, { ssoRequired: true }))
    yield* inAcme(addMember(master, memberInput("cyd", memberRole.id, { email: "cyd@acme.example" })))
    return { ...world, claimed }
  })
  const passwordOf = (username: string) =>
    logIn({ username, password: Redacted.make(password), client: "192.0.2.9" })

  it.effect("refuses its members a password, but not its owners nor those of other domains", () =>
    Effect.gen(function* () {
      const { inAcme, memberRole, organization } = yield* acmeRequiringSso
      assert.instanceOf(yield* refusal(passwordOf("cyd")), SsoRequired)
      assert.instanceOf(yield* refusal(passwordOf("cyd@acme.example")), SsoRequired)
      yield* inAcme(addMember(master, memberInput("dee", memberRole.id, { email: "dee@elsewhere.example" })))
      assert.isTrue("token" in (yield* passwordOf("dee")), "another domain's member keeps the password")
      yield* inAcme(
        addMember(
          master,
          memberInput("owner", organization.ownerRoleId ?? 0, { email: "owner@acme.example" })
        )
      )
      const owner = yield* passwordOf("owner")
      assert.isTrue("token" in owner, "an owner keeps the password: the way in when the provider fails")
    }).pipe(provideSso())
  )

  it.effect(
    "lets its members use their password again once it no longer requires it or holds the domain",
    () =>
      Effect.gen(function* () {
        const { inAcme, claimed } = yield* acmeRequiringSso
        yield* inAcme(updateOrganization(master, { ssoRequired: false }))
        assert.isTrue("token" in (yield* passwordOf("cyd")))
        yield* inAcme(updateOrganization(master, { ssoRequired: true }))
        assert.instanceOf(yield* refusal(passwordOf("cyd")), SsoRequired)
        yield* inAcme(removeDomain(master, claimed.id))
        assert.isTrue("token" in (yield* passwordOf("cyd")))
      }).pipe(provideSso())
  )

  it.effect("holds nobody to it in a domain another organisation verified", () =>
    Effect.gen(function* () {
      yield* acmeRequiringSso
      yield* updateOrganization(master, { ssoRequired: true })
      const here = yield* roleWith("reader", ["team.read"])
      yield* addMember(master, memberInput("eve", here.id, { email: "eve@acme.example" }))
      assert.isTrue("token" in (yield* passwordOf("eve")), "Acme's domain, not the default organisation's")
      assert.instanceOf(yield* refusal(passwordOf("cyd")), SsoRequired)
    }).pipe(provideSso())
  )
})
