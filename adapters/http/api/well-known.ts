import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { PublicJwk } from "../../../core/index.ts"
import { documented } from "./operation-docs.ts"

/** Where, under the issuer, the key set and the issuer's metadata are served. */
export const jwksPath = "/.well-known/jwks.json"
export const openIdConfigurationPath = "/.well-known/openid-configuration"

export const JwksView = Schema.Struct({
  keys: Schema.Array(PublicJwk).annotate({
    description: "Each public key with its kid (RFC 7638 thumbprint), alg and use: never a private part"
  })
}).annotate({ identifier: "roster/Jwks" })

export const OpenIdConfigurationView = Schema.Struct({
  issuer: Schema.String,
  jwks_uri: Schema.String
}).annotate({ identifier: "roster/OpenIdConfiguration" })

/** What a product verifying access tokens fetches: public, cacheable for five minutes, open to every origin. */
export class WellKnownApi extends HttpApiGroup.make("wellKnown")
  .add(
    HttpApiEndpoint.get("jwks", jwksPath, { success: JwksView }).annotateMerge(
      documented("The public keys access tokens are signed with (a JSON Web Key Set)")
    ),
    HttpApiEndpoint.get("openidConfiguration", openIdConfigurationPath, {
      success: OpenIdConfigurationView
    }).annotateMerge(
      documented("The access tokens' issuer and where its key set is, for gateways configured by issuer")
    )
  )
  .annotate(OpenApi.Description, "The keys that verify access tokens, served under the issuer") {}
