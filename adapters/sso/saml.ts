import type { CacheProvider } from "@node-saml/node-saml"
import { Effect, Redacted } from "effect"
import {
  acsUrlOf,
  IdpUnavailable,
  type ProviderAnswer,
  type ReadySamlSettings,
  type SamlSettings,
  type ServiceUrls,
  type SsoConnectionRecord,
  SsoRefused,
  spEntityIdOf
} from "../../core/index.ts"
import { loadedOnFirstUse } from "../runtime/loaded-on-first-use.ts"
import { pemOf } from "./certificates.ts"
import { samlRequestIdOf } from "./derived.ts"
import { readAssertion } from "./saml-assertion.ts"

// About 11 MB of a running process (its XML, signature and encryption stack), loaded with the first SAML connection's use.
const nodeSaml = loadedOnFirstUse(() => import("@node-saml/node-saml"))

type Saml = ReadySamlSettings

/** Clocks may differ by a minute between the IdP and Roster. */
const skewMs = 60_000

/**
 * node-saml remembers no request: Roster reads which one a response answers itself
 * (`readAssertion`), from the sign-in's state, so any instance reads any response.
 */
const nothingCached: CacheProvider = {
  getAsync: async () => null,
  saveAsync: async () => null,
  removeAsync: async () => null
}

/**
 * A connection's SAML service provider: its requests signed (SHA-256) by its own key, its id
 * derived from the state; a response must be signed (the response, the assertion, or both) by the
 * IdP's pinned certificate, name Roster's audience and be in its time (60 s of skew). Which request
 * it answers and who issued it, node-saml does not hold to the rules: `readAssertion` does.
 */
const serviceProvider = async (
  connection: SsoConnectionRecord,
  saml: Saml,
  key: Redacted.Redacted<string>,
  state: Redacted.Redacted<string>,
  urls: ServiceUrls
) => {
  const { SAML, ValidateInResponseTo } = await nodeSaml()
  const requestId = samlRequestIdOf(Redacted.value(state))
  return new SAML({
    entryPoint: saml.idpSsoUrl,
    issuer: spEntityIdOf(urls, connection.id),
    audience: spEntityIdOf(urls, connection.id),
    callbackUrl: acsUrlOf(urls),
    idpIssuer: saml.idpEntityId,
    idpCert: saml.idpCertificates.map((der) => pemOf(der)),
    privateKey: Redacted.value(key),
    publicCert: pemOf(saml.spCertificate),
    signatureAlgorithm: "sha256",
    digestAlgorithm: "sha256",
    identifierFormat: null,
    disableRequestedAuthnContext: true,
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: false,
    acceptedClockSkewMs: skewMs,
    // An unsolicited response must reach `readAssertion` signed and read, for its assertion to be spent.
    validateInResponseTo: ValidateInResponseTo.never,
    cacheProvider: nothingCached,
    generateUniqueId: () => requestId
  })
}

export const samlSignInUrl = (
  connection: SsoConnectionRecord,
  saml: Saml,
  key: Redacted.Redacted<string>,
  state: Redacted.Redacted<string>,
  urls: ServiceUrls
) =>
  Effect.tryPromise({
    try: async () =>
      (await serviceProvider(connection, saml, key, state, urls)).getAuthorizeUrlAsync(
        Redacted.value(state),
        undefined,
        {}
      ),
    catch: () => new IdpUnavailable()
  })

const attribute = (profile: Record<string, unknown>, ...names: ReadonlyArray<string>) => {
  for (const name of names) {
    const value = profile[name]
    if (typeof value === "string" && value !== "") return value
    if (Array.isArray(value) && typeof value[0] === "string") return value[0]
  }
  return undefined
}

/**
 * Whom a posted SAML response proves, every check passed (see `serviceProvider` and
 * `readAssertion`; XML signature wrapping is refused by reading only what the signature covers),
 * and its assertion, which answers this sign-in's request or not. The subject is the NameID; the
 * e-mail an `email` or `mail` attribute, else a NameID that is an address.
 */
export const samlAnswer = (
  connection: SsoConnectionRecord,
  saml: Saml,
  key: Redacted.Redacted<string>,
  state: Redacted.Redacted<string>,
  samlResponse: string,
  urls: ServiceUrls
) =>
  Effect.tryPromise({
    try: async (): Promise<ProviderAnswer> => {
      const provider = await serviceProvider(connection, saml, key, state, urls)
      const { profile } = await provider.validatePostResponseAsync({
        SAMLResponse: samlResponse,
        RelayState: Redacted.value(state)
      })
      if (profile === null || typeof profile.nameID !== "string" || profile.nameID === "")
        throw new Error("no subject")
      const assertion = readAssertion(profile.getAssertion?.(), {
        requestId: samlRequestIdOf(Redacted.value(state)),
        idpEntityId: saml.idpEntityId,
        responseInResponseTo: typeof profile.inResponseTo === "string" ? profile.inResponseTo : undefined,
        now: Date.now(),
        skewMs
      })
      const email =
        attribute(
          profile,
          "email",
          "mail",
          "urn:oid:0.9.2342.19200300.100.1.3",
          "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress"
        ) ?? (profile.nameID.includes("@") ? profile.nameID : undefined)
      return {
        subject: profile.nameID,
        email: email ?? null,
        assertion
      }
    },
    catch: () => new SsoRefused({ reason: "answer" })
  })

/**
 * The SP metadata of a connection: its entity id, its ACS (HTTP-POST), its signing certificate.
 * It names no IdP, so a draft's is served as soon as it is made.
 */
export const samlMetadata = (
  connection: SsoConnectionRecord,
  saml: SamlSettings,
  key: Redacted.Redacted<string>,
  urls: ServiceUrls
) =>
  Effect.promise(async () =>
    (await nodeSaml()).generateServiceProviderMetadata({
      issuer: spEntityIdOf(urls, connection.id),
      callbackUrl: acsUrlOf(urls),
      privateKey: Redacted.value(key),
      publicCerts: pemOf(saml.spCertificate),
      identifierFormat: null,
      wantAssertionsSigned: false
    })
  )
