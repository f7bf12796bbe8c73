import { Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { publishedSigningKeys } from "../../../core/index.ts"
import { RosterApi } from "../api/roster-api.ts"
import { jwksPath } from "../api/well-known.ts"
import { accessTokenAnswer, issuerFor } from "../call-answers.ts"
import type { EdgeOptions } from "../edge/options.ts"
import { currentMountPath } from "../edge/routed.ts"
import { onServices } from "../handed-services.ts"
import { jsonAnswer } from "../json-once.ts"
import { toJsonAnswer } from "../read-answers.ts"
import { toProblem } from "../to-problem.ts"
import { asCaller } from "./as-caller.ts"

/** The issuer tokens name, for the request the router took (see `issuerFor`). */
export const issuerOf = (request: HttpServerRequest.HttpServerRequest, publicUrl: string | undefined) =>
  Effect.map(currentMountPath, (mountPath) => issuerFor(request.originalUrl, mountPath, publicUrl))

/** What a verifier fetches may be kept five minutes by anyone, and read by any page. */
const publicHeaders = { "cache-control": "public, max-age=300", "access-control-allow-origin": "*" }

/** `POST /auth/token`: the caller's access token, naming the issuer the request reached. */
export const accessTokenHandler =
  (options: EdgeOptions) =>
  ({ request }: { readonly request: HttpServerRequest.HttpServerRequest }) =>
    Effect.flatMap(issuerOf(request, options.publicUrl), (issuer) =>
      Effect.map(
        asCaller((actor) => accessTokenAnswer(actor, issuer)),
        toJsonAnswer
      )
    )

/** The key set and the issuer's metadata, public and cacheable (see `publicHeaders`). */
export const wellKnownHandlers = (options: EdgeOptions) =>
  HttpApiBuilder.group(RosterApi, "wellKnown", (handlers) =>
    handlers
      .handle("jwks", () =>
        onServices(publishedSigningKeys).pipe(
          Effect.mapError(toProblem),
          Effect.map((keySet) => jsonAnswer(JSON.stringify(keySet), publicHeaders))
        )
      )
      .handle("openidConfiguration", ({ request }) =>
        Effect.map(issuerOf(request, options.publicUrl), (issuer) =>
          jsonAnswer(JSON.stringify({ issuer, jwks_uri: `${issuer}${jwksPath}` }), publicHeaders)
        )
      )
  )
