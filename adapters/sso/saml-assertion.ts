/** A signed assertion as node-saml parses it (xml2js: prefixes stripped, attributes in `$`, text in `_`). */
interface ParsedAssertion {
  readonly Assertion?: {
    readonly $?: { readonly ID?: string }
    readonly Issuer?: ReadonlyArray<{ readonly _?: string }>
    readonly Subject?: ReadonlyArray<{
      readonly SubjectConfirmation?: ReadonlyArray<{
        readonly $?: { readonly Method?: string }
        readonly SubjectConfirmationData?: ReadonlyArray<{ readonly $?: Record<string, string | undefined> }>
      }>
    }>
    readonly Conditions?: ReadonlyArray<{ readonly $?: { readonly NotOnOrAfter?: string } }>
  }
}

const bearer = "urn:oasis:names:tc:SAML:2.0:cm:bearer"

/** What Roster asked and when: the AuthnRequest a sign-in sent, the IdP it sent it to. */
export interface Asked {
  readonly requestId: string
  readonly idpEntityId: string
  /** The Response's own `InResponseTo`, read outside the signature when only the assertion is signed. */
  readonly responseInResponseTo: string | undefined
  readonly now: number
  readonly skewMs: number
}

const timeOf = (text: string | undefined) => (text === undefined ? Number.NaN : Date.parse(text))

/**
 * Roster's own reading of the assertion the signature covers, where the SAML library is lenient
 * (SAML Profiles §4.1.4.2–3): its `Issuer` must be the connection's IdP entity id; its bearer
 * confirmations must each carry a `NotOnOrAfter`, and one be within its time (with the skew). It
 * answers the sign-in only when such a confirmation's `InResponseTo` and the Response's both name
 * the sign-in's AuthnRequest: an IdP-initiated assertion names none. Throws when it is not this
 * IdP's or not in time; tells whether it answers the request, so that an assertion that does not
 * is still spent before it is refused.
 */
export const readAssertion = (parsed: unknown, asked: Asked) => {
  const assertion = (parsed as ParsedAssertion | undefined)?.Assertion
  const id = assertion?.$?.ID
  if (assertion === undefined || id === undefined) throw new Error("no assertion id")
  // One IdP may sign for many entity ids with one key (a tenant each): the key alone proves none.
  if (assertion.Issuer?.[0]?._?.trim() !== asked.idpEntityId) throw new Error("another issuer")
  const confirmations = (assertion.Subject?.[0]?.SubjectConfirmation ?? [])
    .filter((confirmation) => confirmation.$?.Method === bearer)
    .map((confirmation) => confirmation.SubjectConfirmationData?.[0]?.$ ?? {})
  if (confirmations.length === 0 || confirmations.some((data) => data.NotOnOrAfter === undefined))
    throw new Error("a bearer confirmation without NotOnOrAfter")
  const inTime = confirmations.filter(
    (data) =>
      asked.now - asked.skewMs < timeOf(data.NotOnOrAfter) &&
      !(asked.now + asked.skewMs < timeOf(data.NotBefore))
  )
  if (inTime.length === 0) throw new Error("no bearer confirmation in its time")
  const answersRequest =
    asked.responseInResponseTo === asked.requestId &&
    inTime.some((data) => data.InResponseTo === asked.requestId)
  // Kept spent while any of it could still be accepted: its conditions' and its confirmations' time.
  const until = Math.max(
    ...[assertion.Conditions?.[0]?.$?.NotOnOrAfter, ...inTime.map((data) => data.NotOnOrAfter)]
      .map(timeOf)
      .filter((at) => !Number.isNaN(at))
  )
  return { id, expiresAt: until + asked.skewMs, answersRequest }
}
