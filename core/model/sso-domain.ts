import { Schema } from "effect"
import { DomainId, OrganizationId } from "./ids.ts"
import { asciiDomain } from "./member.ts"
import { cursorOf } from "./page.ts"

/**
 * A DNS name an organisation claims: two labels at least, each of letters, digits and inner
 * hyphens; compared lower-cased and in ASCII (see `normalizeDomain`).
 */
export const DomainName = Schema.String.check(
  Schema.isTrimmed(),
  Schema.makeFilter(
    (name) =>
      /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/u.test(
        normalizeDomain(name)
      ) || "Expected a domain name, like example.com"
  )
)

/** A domain as stored and compared: lower-cased, in ASCII (IDNA), without a trailing dot. */
export const normalizeDomain = (name: string): string =>
  asciiDomain(name.trim().normalize("NFC").toLowerCase()).replace(/\.$/u, "")

/** The DNS name whose TXT record proves a domain. */
export const challengeName = (domain: string) => `_roster-challenge.${domain}`

export const DomainStatus = Schema.Literals(["pending", "verified"])

/**
 * A domain an organisation claims. It is `verified` once a TXT record at `txtName` held `txtValue`
 * (or the operator said so); at most one organisation holds a domain verified. The value is no
 * secret: the organisation publishes it in DNS.
 */
export class SsoDomain extends Schema.Class<SsoDomain>("roster/SsoDomain")({
  id: DomainId,
  domain: Schema.String,
  status: DomainStatus,
  txtName: Schema.String,
  txtValue: Schema.String,
  createdAt: Schema.DateTimeUtc,
  verifiedAt: Schema.NullOr(Schema.DateTimeUtc)
}) {}

/** A domain as kept: with its organisation. */
export class SsoDomainRecord extends Schema.Class<SsoDomainRecord>("roster/SsoDomainRecord")({
  ...SsoDomain.fields,
  organizationId: OrganizationId
}) {}

export const toSsoDomain = ({ organizationId: _, ...domain }: SsoDomainRecord) =>
  // Stryker disable next-line ObjectLiteral,BooleanLiteral: checking a checked record again changes its cost, never its result
  new SsoDomain(domain, { disableChecks: true })

export const AddDomainInput = Schema.Struct({ domain: DomainName })
export type AddDomainInput = typeof AddDomainInput.Type

/** What verifying asks: nothing (DNS is read), or the operator's word that it is verified. */
export const VerifyDomainInput = Schema.Struct({ verified: Schema.optionalKey(Schema.Literal(true)) })
export type VerifyDomainInput = typeof VerifyDomainInput.Type

/** Where a page of domains ends: oldest first, the id breaking ties. */
export const DomainPosition = Schema.Struct({ createdAt: Schema.DateTimeUtcFromMillis, id: DomainId })
export type DomainPosition = typeof DomainPosition.Type
export const DomainCursor = cursorOf(DomainPosition)

/** The domain of an e-mail address, as domains are compared. */
export const domainOfEmail = (email: string): string =>
  normalizeDomain(email.slice(email.lastIndexOf("@") + 1))
