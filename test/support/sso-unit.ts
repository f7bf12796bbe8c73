import { Context, Effect, Layer, Redacted } from "effect"
import type { RosterOptions } from "../../app/roster-layer.ts"
import {
  ConnectionInvalid,
  CurrentOrganization,
  createOrganization,
  DnsRecords,
  IdentityProviders,
  IdpUnavailable,
  type OrganizationId,
  type ProviderAnswer,
  SsoRefused,
  spEntityIdOf
} from "../../core/index.ts"
import { master, provideRoster, roleWith } from "./roster.ts"

/** The client secret every OIDC connection of these tests is made with. */
export const clientSecret = "the-client-secret-of-acme"
export const returnUrl = "https://app.example.com/sso"

/** What a test's identity provider proves: whom, or a refusal of its protocol. */
export interface ProvenBy {
  readonly subject: string
  readonly email: string | null
  readonly assertion?: ProviderAnswer["assertion"]
}

/**
 * The identity providers of the unit tests: a reply names whom it proves in the clear (OIDC's
 * callback query `sub` and `email`, SAML's response as JSON), and holds only for the sign-in's own
 * `state` and the connection's own opened secret, so that the use cases' wiring is what is tested,
 * not the protocols (those are the adapter's, tested against real providers). Issuers and URLs
 * holding `bad` are refused, as are metadata that are not JSON and certificates not `CERT:`.
 */
export const fakeIdentityProviders = () => {
  let keys = 0
  const spKeys = new Set<string>()
  const secretHolds = (kind: "oidc" | "saml", secret: Redacted.Redacted<string>) =>
    kind === "oidc" ? Redacted.value(secret) === clientSecret : spKeys.has(Redacted.value(secret))
  return Layer.succeed(
    IdentityProviders,
    IdentityProviders.of({
      checkIssuer: (issuer) =>
        issuer.includes("bad")
          ? Effect.fail(new ConnectionInvalid({ field: "issuer", message: "No discovery document" }))
          : Effect.void,
      readMetadata: (xml) =>
        Effect.try({
          try: () => JSON.parse(xml) as { entityId: string; ssoUrl: string; certificates: Array<string> },
          catch: () => new ConnectionInvalid({ field: "idpMetadataXml", message: "Not metadata" })
        }),
      readCertificate: (text, field) =>
        text.startsWith("CERT:")
          ? Effect.succeed(text.slice(5))
          : Effect.fail(new ConnectionInvalid({ field, message: "Not a certificate" })),
      checkProviderUrl: (url, field) =>
        url.includes("bad")
          ? Effect.fail(new ConnectionInvalid({ field, message: "Not an address to send browsers to" }))
          : Effect.void,
      newServiceProviderKey: Effect.sync(() => {
        keys += 1
        const privateKey = `sp-private-key-${keys}`
        spKeys.add(privateKey)
        return { privateKey: Redacted.make(privateKey), certificate: `${"Q".repeat(70)}${keys}` }
      }),
      signInUrl: (connection, secret, state) =>
        secretHolds(connection.kind, secret)
          ? Effect.succeed(`https://idp.example/${connection.id}?state=${Redacted.value(state)}`)
          : Effect.fail(new IdpUnavailable()),
      readReply: (connection, secret, state, reply) =>
        Effect.gen(function* () {
          // A reply of the other protocol is no answer of this connection's provider.
          if (!secretHolds(connection.kind, secret) || reply.kind !== connection.kind) {
            return yield* new IdpUnavailable()
          }
          const proven: ProvenBy & { readonly state?: string; readonly error?: string } =
            reply.kind === "oidc"
              ? (() => {
                  const query = new URL(reply.callbackUrl).searchParams
                  return {
                    state: query.get("state") ?? "",
                    subject: query.get("sub") ?? "",
                    email: query.get("email"),
                    ...(query.has("error") ? { error: query.get("error") ?? "" } : {})
                  }
                })()
              : JSON.parse(reply.samlResponse)
          if (proven.error !== undefined || proven.state !== Redacted.value(state)) {
            return yield* new SsoRefused({ reason: "answer" })
          }
          return {
            subject: proven.subject,
            email: proven.email,
            ...(proven.assertion === undefined ? {} : { assertion: proven.assertion })
          }
        }),
      serviceProviderMetadata: (connection, key, urls) =>
        Effect.succeed(
          `<EntityDescriptor entityID="${spEntityIdOf(urls, connection.id)}" key="${Redacted.value(key)}"/>`
        )
    })
  )
}

/** The TXT records the test's DNS answers, by name: what a test publishes to prove a domain. */
export class PublishedTxt extends Context.Service<PublishedTxt, Map<string, ReadonlyArray<string>>>()(
  "test/PublishedTxt"
) {}

const fakeDns = Layer.effect(
  DnsRecords,
  Effect.gen(function* () {
    const records = yield* PublishedTxt
    return DnsRecords.of({ txt: (name) => Effect.sync(() => records.get(name) ?? []) })
  })
).pipe(Layer.provideMerge(Layer.sync(PublishedTxt, () => new Map())))

/**
 * Roster on the in-memory store with a secrets key, `returnUrl` allowed, the identity providers
 * above and a DNS the test publishes to.
 */
export const provideSso =
  (options: RosterOptions = {}) =>
  <A, E, R>(self: Effect.Effect<A, E, R>) =>
    self.pipe(
      Effect.provide(Layer.merge(fakeIdentityProviders(), fakeDns)),
      provideRoster({
        secretsKeys: ["unit tests' secrets key, long enough"],
        sso: { returnUrls: [returnUrl] },
        ...options
      })
    )

/** Acme, an organisation of its own, with a `member` role holding team.read alone; runs `self` in it. */
export const acme = Effect.gen(function* () {
  const organization = yield* createOrganization(master, { name: "Acme", slug: "acme" })
  const inAcme = <A, E, R>(self: Effect.Effect<A, E, R>) =>
    Effect.provideService(self, CurrentOrganization, organization.id as OrganizationId)
  const memberRole = yield* inAcme(roleWith("member", ["team.read"]))
  return { organization, inAcme, memberRole }
})
