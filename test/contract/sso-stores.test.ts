import { assert, describe, it } from "@effect/vitest"
import { DateTime, Effect, Option } from "effect"
import {
  AuditEntry,
  AuditEntryId,
  CurrentOrganization,
  DomainId,
  DomainStore,
  defaultOrganizationId,
  MemberId,
  type OrganizationId,
  PermissionId,
  SealedSecret,
  SpentAssertion,
  SsoConnectionId,
  SsoConnectionRecord,
  SsoConnectionStore,
  SsoDomainRecord,
  SsoIdentity,
  SsoLogin,
  SsoLoginStore,
  TokenHash
} from "../../core/index.ts"
import { at, otherOrganization } from "../support/contract.ts"
import { kitStoreKinds } from "../support/stores.ts"

const entry = (
  id: string,
  action: AuditEntry["action"],
  type: "domain" | "sso_connection",
  organizationId: OrganizationId = defaultOrganizationId
) =>
  new AuditEntry({
    id: AuditEntryId.make(`aud-sso-${id}`),
    at: at(1),
    action,
    actor: { kind: "master" },
    target: { type, id },
    changes: {},
    organizationId
  })

const claimed = (id: string, domain: string, organizationId: OrganizationId = defaultOrganizationId) =>
  new SsoDomainRecord({
    id: DomainId.make(id),
    organizationId,
    domain,
    status: "pending",
    txtName: `_roster-challenge.${domain}`,
    txtValue: `rsd_${id}`,
    createdAt: at(Number(id.replace(/\D/gu, "")) || 1),
    verifiedAt: null
  })

const verified = (record: SsoDomainRecord) =>
  new SsoDomainRecord({ ...record, status: "verified", verifiedAt: at(50) })

const connection = (
  n: number,
  status: "enabled" | "disabled" = "enabled",
  organizationId: OrganizationId = defaultOrganizationId
) =>
  new SsoConnectionRecord({
    id: SsoConnectionId.make(`sso_contract_${n}`),
    organizationId,
    kind: "oidc",
    name: `IdP ${n}`,
    status,
    createdAt: at(n),
    updatedAt: at(n),
    oidc: {
      issuer: "https://idp.example.com",
      clientId: "roster",
      clientSecret: SealedSecret.make("v1.k.secret"),
      scopes: ["openid"]
    },
    saml: null,
    trustCeiling: n === 2 ? [PermissionId.make(1), PermissionId.make(12)] : null
  })

const hash = (n: number) => TokenHash.make(n.toString(16).padStart(64, "0"))

const login = (n: number, expiresAt: number) =>
  new SsoLogin({
    stateHash: hash(n),
    bindingHash: hash(1000 + n),
    connectionId: SsoConnectionId.make("sso_contract_1"),
    organizationId: defaultOrganizationId,
    returnTo: "/console/",
    createdAt: at(expiresAt - 600),
    expiresAt: at(expiresAt),
    proven: null
  })

const inOther = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.provideService(effect, CurrentOrganization, otherOrganization)

describe.each(kitStoreKinds)("single sign-on's stores on %s", (_, stores) => {
  it.effect("a domain is claimed once per organisation and held verified by one organisation at most", () =>
    Effect.gen(function* () {
      const domains = yield* DomainStore
      const ours = claimed("dom_1", "example.com")
      yield* domains.insert(ours, entry("dom_1", "domain.created", "domain"))
      const twice = yield* Effect.flip(
        domains.insert(claimed("dom_2", "example.com"), entry("dom_2", "domain.created", "domain"))
      )
      assert.strictEqual(twice._tag, "DomainTaken")
      const theirs = claimed("dom_3", "example.com", otherOrganization)
      yield* inOther(domains.insert(theirs, entry("dom_3", "domain.created", "domain", otherOrganization)))
      assert.isTrue(Option.isNone(yield* domains.findVerified("example.com")), "pending claims hold nothing")
      const marked = yield* domains.markVerified(verified(ours), entry("dom_1v", "domain.verified", "domain"))
      assert.strictEqual(Option.getOrThrow(marked).status, "verified")
      assert.strictEqual(
        Option.getOrThrow(yield* domains.findVerified("example.com")).organizationId,
        defaultOrganizationId
      )
      const refused = yield* Effect.flip(
        inOther(
          domains.markVerified(
            verified(theirs),
            entry("dom_3v", "domain.verified", "domain", otherOrganization)
          )
        )
      )
      assert.strictEqual(refused._tag, "DomainTaken")
      assert.strictEqual(
        Option.getOrThrow(yield* inOther(domains.find(theirs.id))).status,
        "pending",
        "nothing changed"
      )
      assert.isTrue(
        Option.isNone(yield* domains.find(theirs.id)),
        "another organisation's domain is not found here"
      )
      assert.deepStrictEqual(
        (yield* domains.page(undefined, 10)).map((record) => record.id),
        [ours.id]
      )
      assert.isTrue(
        Option.isSome(yield* domains.remove(ours.id, entry("dom_1d", "domain.deleted", "domain")))
      )
      assert.isTrue(Option.isNone(yield* domains.findVerified("example.com")))
      const again = yield* inOther(
        domains.markVerified(
          verified(theirs),
          entry("dom_3w", "domain.verified", "domain", otherOrganization)
        )
      )
      assert.isTrue(Option.isSome(again), "given up, the domain may be verified elsewhere")
      yield* inOther(domains.removeAll)
      assert.isTrue(Option.isNone(yield* domains.findVerified("example.com")))
    }).pipe(Effect.provide(stores()))
  )

  it.effect("connections: an organisation's own, its enabled ones oldest first, found anywhere by id", () =>
    Effect.gen(function* () {
      const connections = yield* SsoConnectionStore
      const logins = yield* SsoLoginStore
      for (const made of [connection(2), connection(1), connection(3, "disabled")]) {
        yield* connections.insert(made, entry(made.id, "sso.connection.created", "sso_connection"))
      }
      const foreign = connection(4, "enabled", otherOrganization)
      yield* inOther(
        connections.insert(
          foreign,
          entry(foreign.id, "sso.connection.created", "sso_connection", otherOrganization)
        )
      )
      assert.deepStrictEqual(
        (yield* connections.enabledOf(defaultOrganizationId)).map((record) => record.id),
        [connection(1).id, connection(2).id]
      )
      assert.deepStrictEqual(
        (yield* connections.page(undefined, 2)).map((record) => record.id),
        [connection(1).id, connection(2).id]
      )
      assert.isTrue(
        Option.isNone(yield* connections.find(foreign.id)),
        "another organisation's is not found here"
      )
      assert.isTrue(Option.isSome(yield* connections.findAnywhere(foreign.id)))
      for (const n of [1, 2]) {
        const kept = Option.getOrThrow(yield* connections.find(connection(n).id))
        assert.deepStrictEqual(kept, connection(n), "kept whole, what it trusts included")
      }
      const renamed = new SsoConnectionRecord({ ...connection(1), name: "Renamed" })
      const replaced = yield* connections.replace(
        renamed,
        entry("r1", "sso.connection.updated", "sso_connection")
      )
      assert.strictEqual(Option.getOrThrow(replaced).name, "Renamed")
      const alien = yield* connections.replace(
        new SsoConnectionRecord({ ...foreign, organizationId: defaultOrganizationId }),
        entry("r2", "sso.connection.updated", "sso_connection")
      )
      assert.isTrue(Option.isNone(alien), "nobody replaces another organisation's connection")
      const identity = new SsoIdentity({
        connectionId: connection(1).id,
        subject: "sub-1",
        accountId: MemberId.make("member-ada"),
        organizationId: defaultOrganizationId,
        createdAt: at(5)
      })
      yield* logins.link(identity)
      assert.isTrue(Option.isSome(yield* logins.findIdentity(connection(1).id, "sub-1")))
      yield* connections.remove(connection(1).id, entry("d1", "sso.connection.deleted", "sso_connection"))
      assert.isTrue(
        Option.isNone(yield* logins.findIdentity(connection(1).id, "sub-1")),
        "its identities go with it"
      )
      assert.isTrue(Option.isNone(yield* connections.findAnywhere(connection(1).id)))
    }).pipe(Effect.provide(stores()))
  )

  it.effect(
    "a sign-in is proven once and taken once; an assertion is accepted once; a link is never moved",
    () =>
      Effect.gen(function* () {
        const logins = yield* SsoLoginStore
        const now = Math.floor(DateTime.toEpochMillis(yield* DateTime.now) / 1000)
        yield* logins.begin(login(1, now - 10))
        yield* logins.begin(login(2, now + 600))
        assert.isTrue(
          Option.isNone(yield* logins.find(hash(1))),
          "an expired sign-in is forgotten when another begins"
        )
        const proven = yield* logins.prove(hash(2), { subject: "s", email: "s@example.com" })
        assert.deepStrictEqual(Option.getOrThrow(proven).proven, { subject: "s", email: "s@example.com" })
        assert.isTrue(
          Option.isNone(yield* logins.prove(hash(2), { subject: "t", email: null })),
          "proven once"
        )
        assert.isTrue(Option.isSome(yield* logins.take(hash(2))))
        assert.isTrue(Option.isNone(yield* logins.take(hash(2))), "taken once")
        const spent = new SpentAssertion({
          connectionId: SsoConnectionId.make("sso_contract_1"),
          assertionId: "_a1",
          expiresAt: DateTime.makeUnsafe((now + 600) * 1000)
        })
        assert.isTrue(yield* logins.spend(spent))
        assert.isFalse(yield* logins.spend(spent), "the same assertion again is refused")
        assert.isTrue(
          yield* logins.spend(
            new SpentAssertion({ ...spent, connectionId: SsoConnectionId.make("sso_contract_2") })
          ),
          "another connection's is its own"
        )
        const linked = (accountId: string) =>
          new SsoIdentity({
            connectionId: SsoConnectionId.make("sso_contract_1"),
            subject: "sub-9",
            accountId: MemberId.make(accountId),
            organizationId: defaultOrganizationId,
            createdAt: at(9)
          })
        assert.isTrue(yield* logins.link(linked("member-ada")))
        assert.isTrue(yield* logins.link(linked("member-ada")), "linking it to its account again holds")
        assert.isFalse(yield* logins.link(linked("member-bob")), "a link is never moved")
        assert.strictEqual(
          Option.getOrThrow(yield* logins.findIdentity(SsoConnectionId.make("sso_contract_1"), "sub-9"))
            .accountId,
          "member-ada"
        )
        yield* logins.unlinkAccount(SsoConnectionId.make("sso_contract_1"), MemberId.make("member-ada"))
        assert.isTrue(
          Option.isNone(yield* logins.findIdentity(SsoConnectionId.make("sso_contract_1"), "sub-9"))
        )
      }).pipe(Effect.provide(stores()))
  )
})
