import { inflateRawSync } from "node:zlib"
import { Effect, Redacted } from "effect"
import * as samlify from "samlify"
import { newServiceProviderKey, pemOf } from "../../adapters/sso/certificates.ts"

// samlify checks messages it parses against the SAML schemas; this IdP parses none (it reads the
// AuthnRequest's id itself), and Roster's own checks are what is under test.
samlify.setSchemaValidator({ validate: async () => "not parsed here" })

const postBinding = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"
const redirectBinding = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"

/** What the IdP asserts, and how it may be bent: the times, the audience, which part it signs. */
export interface Assertion {
  readonly nameId: string
  readonly email?: string
  readonly audience?: string
  /** Seconds from now: NotBefore, NotOnOrAfter. */
  readonly validFrom?: number
  readonly validUntil?: number
  /** Replies to this AuthnRequest id instead of the one asked (none: an unsolicited response). */
  readonly inResponseTo?: string | null
  /** Signs the assertion (else the response). */
  readonly signAssertion?: boolean
  /** Signs the response and the assertion both. */
  readonly signBoth?: boolean
  /**
   * Changes the response's template (samlify's, its `{tags}` still in) before it is filled in and
   * signed: what a careless or rogue IdP signs, e.g. a confirmation without `NotOnOrAfter`.
   */
  readonly template?: (xml: string) => string
  readonly assertionId?: string
}

export interface TestSamlIdp {
  readonly entityId: string
  readonly ssoUrl: string
  readonly metadata: string
  /** The IdP's signing certificate, base64 DER. */
  readonly certificate: string
  /** The AuthnRequest a sign-in URL carries: its id, its RelayState, its issuer. */
  readonly requestOf: (url: string) => {
    readonly id: string
    readonly relayState: string
    readonly xml: string
  }
  /** A SAML response (base64) to `spEntityId` at `acsUrl`, signed as asked. */
  readonly respond: (
    to: { readonly spEntityId: string; readonly acsUrl: string; readonly requestId: string },
    assertion: Assertion
  ) => Promise<string>
}

const isoIn = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString()

/**
 * A SAML IdP made with samlify, in process: it signs responses with its own key, and can be told to
 * assert what an attacker would (another audience, stale times, another request, no signature).
 */
export const samlIdp = async (host = "https://idp.test"): Promise<TestSamlIdp> => {
  const key = await Effect.runPromise(newServiceProviderKey)
  const entityId = `${host}/metadata`
  const ssoUrl = `${host}/sso`
  const idp = samlify.IdentityProvider({
    entityID: entityId,
    privateKey: Redacted.value(key.privateKey),
    signingCert: pemOf(key.certificate),
    singleSignOnService: [{ Binding: redirectBinding, Location: ssoUrl }],
    nameIDFormat: ["urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified"]
  })
  return {
    entityId,
    ssoUrl,
    metadata: idp.getMetadata(),
    certificate: key.certificate,
    requestOf: (url) => {
      const parameters = new URL(url).searchParams
      const xml = inflateRawSync(Buffer.from(parameters.get("SAMLRequest") ?? "", "base64")).toString("utf8")
      return {
        id: /\sID="([^"]+)"/u.exec(xml)?.[1] ?? "",
        relayState: parameters.get("RelayState") ?? "",
        xml
      }
    },
    respond: async (to, assertion) => {
      const sp = samlify.ServiceProvider({
        entityID: to.spEntityId,
        assertionConsumerService: [{ Binding: postBinding, Location: to.acsUrl }],
        wantAssertionsSigned: assertion.signAssertion === true || assertion.signBoth === true,
        wantMessageSigned: assertion.signBoth === true
      })
      const now = isoIn(0)
      const inResponseTo = assertion.inResponseTo === undefined ? to.requestId : assertion.inResponseTo
      const attribute =
        assertion.email === undefined
          ? ""
          : `<saml:AttributeStatement><saml:Attribute Name="email" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic"><saml:AttributeValue xsi:type="xs:string">${assertion.email}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>`
      const authnStatement = `<saml:AuthnStatement AuthnInstant="${now}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`
      const made = await idp.createLoginResponse(
        sp,
        { extract: { request: { id: to.requestId } } },
        "post",
        { email: assertion.nameId },
        {
          customTagReplacement: (template: string) => ({
            id: `_r${crypto.randomUUID().replaceAll("-", "")}`,
            context: samlify.SamlLib.replaceTagsByValue(
              // The statements are XML, which the tag replacement would escape: they go in first.
              (assertion.template ?? ((xml: string) => xml))(
                inResponseTo === null ? template.replaceAll(' InResponseTo="{InResponseTo}"', "") : template
              )
                .replace("{AuthnStatement}", authnStatement)
                .replace("{AttributeStatement}", attribute),
              {
                ID: `_r${crypto.randomUUID().replaceAll("-", "")}`,
                AssertionID: assertion.assertionId ?? `_a${crypto.randomUUID().replaceAll("-", "")}`,
                Destination: to.acsUrl,
                Audience: assertion.audience ?? to.spEntityId,
                EntityID: to.spEntityId,
                SubjectRecipient: to.acsUrl,
                Issuer: entityId,
                IssueInstant: now,
                StatusCode: "urn:oasis:names:tc:SAML:2.0:status:Success",
                ConditionsNotBefore: isoIn(assertion.validFrom ?? -5),
                ConditionsNotOnOrAfter: isoIn(assertion.validUntil ?? 300),
                SubjectConfirmationDataNotOnOrAfter: isoIn(assertion.validUntil ?? 300),
                NameIDFormat: "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified",
                NameID: assertion.nameId,
                InResponseTo: inResponseTo ?? "",
                AuthnStatement: `<saml:AuthnStatement AuthnInstant="${now}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
                AttributeStatement: attribute
              }
            )
          })
        }
      )
      return (made as { context: string }).context
    }
  }
}
