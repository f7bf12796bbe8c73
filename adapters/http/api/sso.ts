import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import {
  AddDomainInput,
  CreateSsoConnectionInput,
  DomainCursor,
  DomainId,
  LinkSsoIdentityInput,
  MemberId,
  SsoConnection,
  SsoConnectionCursor,
  SsoConnectionId,
  SsoDomain,
  UpdateSsoConnectionInput,
  VerifyDomainInput
} from "../../../core/index.ts"
import * as Problem from "../problems.ts"
import * as SsoProblem from "../sso-problems.ts"
import { jsonBody } from "./json-body.ts"
import { limit, pageSchemaOf } from "./list-query.ts"
import { Authentication, ReadsTarget, RequiresPermission } from "./middleware.ts"
import { documented } from "./operation-docs.ts"

// An IdP's signing certificate (P-256, self-signed, valid to 2126): what an administrator pastes.
const exampleCertificate =
  "MIIBizCCATGgAwIBAgIULm6KMs6aLZEvrSBKqMDeMsuYoncwCgYIKoZIzj0EAwIwGjEYMBYGA1UEAwwPaWRwLmV4YW1wbGUuY29tMCAXDTI2MTEyODEyNDkyMVoYDzIxMjYxMTA0MTI0OTIxWjAaMRgwFgYDVQQDDA9pZHAuZXhhbXBsZS5jb20wWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAASWn569HhWNMKyvXN0LDcLtvifA6OH/PFKGjQIQdqcEWFtn/6wwv1L8u9k1GrwD/2Oxkg5roR9y10ClD9cj8JEAo1MwUTAdBgNVHQ4EFgQUux7Y2blwoK2sMDMjbsaSYLUjoqkwHwYDVR0jBBgwFoAUux7Y2blwoK2sMDMjbsaSYLUjoqkwDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNIADBFAiBJlbu+P496H4TNAkvAabD4kpYoe5evVVh+n+67nuHHKwIhAIn0kwPvv9YKi/wwI4lcXzrLY2geozkNPDZslJZmBiZS"

const domainParams = { id: DomainId }
const connectionParams = { id: SsoConnectionId }
const exampleDomain = { id: "dom_0001a2b3c4d5e6f7a8b9c0d1" }
const exampleConnection = { id: "sso_0001a2b3c4d5e6f7a8b9c0d1" }

export const SsoIdentityLink = Schema.Struct({
  connectionId: SsoConnectionId,
  subject: Schema.String,
  memberId: MemberId,
  createdAt: Schema.DateTimeUtc
})

/** The organisation's domains and single sign-on connections: set up by `organization.sso.write`. */
export class SsoApi extends HttpApiGroup.make("sso")
  .add(
    HttpApiEndpoint.post("addDomain", "/organization/domains", {
      payload: jsonBody(AddDomainInput),
      success: SsoDomain,
      error: SsoProblem.DomainTaken
    }).annotateMerge(
      documented(
        "Claim a domain, pending until DNS proves it: publish txtValue as a TXT record at txtName, then verify",
        { example: { domain: "example.com" } }
      )
    ),
    HttpApiEndpoint.get("listDomains", "/organization/domains", {
      query: { limit, cursor: Schema.optionalKey(DomainCursor) },
      success: pageSchemaOf(SsoDomain)
    }).annotateMerge(documented("List the organisation's domains, oldest first, with their TXT records")),
    HttpApiEndpoint.get("getDomain", "/organization/domains/:id", {
      params: domainParams,
      success: SsoDomain,
      error: Problem.NotFound
    })
      .annotate(ReadsTarget, "domain")
      .annotateMerge(documented("Read a domain, with its TXT record", { params: exampleDomain })),
    HttpApiEndpoint.post("verifyDomain", "/organization/domains/:id/verify", {
      params: domainParams,
      payload: jsonBody(VerifyDomainInput),
      success: SsoDomain,
      error: [Problem.NotFound, SsoProblem.DomainUnverified, SsoProblem.DomainTaken]
    }).annotateMerge(
      documented(
        "Verify a domain by its TXT record (409 domain_unverified names what DNS holds); the master key may send { verified: true } instead",
        { params: exampleDomain, example: {} }
      )
    ),
    HttpApiEndpoint.delete("removeDomain", "/organization/domains/:id", {
      params: domainParams,
      success: SsoDomain,
      error: Problem.NotFound
    }).annotateMerge(documented("Give a domain up", { params: exampleDomain })),
    HttpApiEndpoint.post("createSsoConnection", "/organization/sso", {
      payload: jsonBody(CreateSsoConnectionInput),
      success: SsoConnection,
      error: [Problem.SecretsKeyRequired]
    }).annotateMerge(
      documented(
        'Connect an identity provider: OIDC (issuer, client id and secret) or SAML (the IdP\'s metadata, or its entity id, sign-in URL and certificate; or { kind: "saml" } alone, a draft that signs nobody in until a PATCH sets its IdP); the answer holds what to copy into the IdP',
        {
          example: {
            kind: "saml",
            idpEntityId: "https://idp.example.com/metadata",
            idpSsoUrl: "https://idp.example.com/sso",
            idpCertificate: exampleCertificate
          }
        }
      )
    ),
    HttpApiEndpoint.get("listSsoConnections", "/organization/sso", {
      query: { limit, cursor: Schema.optionalKey(SsoConnectionCursor) },
      success: pageSchemaOf(SsoConnection)
    }).annotateMerge(documented("List the organisation's connections, oldest first (never their secrets)")),
    HttpApiEndpoint.get("getSsoConnection", "/organization/sso/:id", {
      params: connectionParams,
      success: SsoConnection,
      error: Problem.NotFound
    })
      .annotate(ReadsTarget, "sso_connection")
      .annotateMerge(
        documented("Read a connection, with the values to copy into its IdP", { params: exampleConnection })
      ),
    HttpApiEndpoint.patch("updateSsoConnection", "/organization/sso/:id", {
      params: connectionParams,
      payload: jsonBody(UpdateSsoConnectionInput),
      success: SsoConnection,
      error: [Problem.NotFound, Problem.SecretsKeyRequired, SsoProblem.IdpIncomplete]
    }).annotateMerge(
      documented(
        "Rename, enable or disable a connection, or change its IdP's settings. A draft's IdP is set whole (idpMetadataXml, or idpEntityId, idpSsoUrl and idpCertificate together: else 422 idp_incomplete), which enables it",
        {
          params: exampleConnection,
          example: { status: "disabled" }
        }
      )
    ),
    HttpApiEndpoint.delete("deleteSsoConnection", "/organization/sso/:id", {
      params: connectionParams,
      success: SsoConnection,
      error: Problem.NotFound
    }).annotateMerge(
      documented("Delete a connection and the identities linked through it", { params: exampleConnection })
    )
  )
  .add(
    HttpApiEndpoint.post("linkSsoIdentity", "/team/members/:id/sso-link", {
      params: { id: MemberId },
      payload: jsonBody(LinkSsoIdentityInput),
      success: SsoIdentityLink,
      error: [Problem.NotFound, SsoProblem.SsoAccountConflict]
    })
      .annotate(RequiresPermission, "admin.accounts.write")
      .annotateMerge(
        documented(
          "Link a member's account to an identity at one of the organisation's connections (its subject: OIDC sub, SAML NameID); an existing account is never linked by e-mail alone. An account change like its password: within the ceiling; an identity linked to another account is never moved (409)",
          {
            params: { id: "4b3c2d1e-0000-4000-8000-000000000001" },
            example: { connectionId: exampleConnection.id, subject: "00u1a2b3c4" }
          }
        )
      )
  )
  .annotate(RequiresPermission, "organization.sso.write")
  .middleware(Authentication)
  .prefix("/api/v1")
  .annotate(
    OpenApi.Description,
    "Single sign-on: the organisation's verified domains and its identity providers"
  ) {}
