import { Effect, Redacted, Result } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import {
  acceptSamlReply,
  CurrentServiceUrls,
  exchangeSsoCode,
  finishOidcSso,
  finishSamlSso,
  type ServiceUrls,
  serviceProviderMetadata,
  startSso
} from "../../../core/index.ts"
import { RosterApi } from "../api/roster-api.ts"
import type { EdgeOptions } from "../edge/options.ts"
import { onServices } from "../handed-services.ts"
import { bindingOf, codeOf, refused, serviceUrlsOf, signedIn, toProvider } from "../sso-browser.ts"
import { toProblem } from "../to-problem.ts"
import { toLoginView } from "../views.ts"
import { toCompletion } from "./as-caller.ts"
import { fromClient } from "./from-client.ts"

const queryOf = (url: string) => {
  const mark = url.indexOf("?")
  return mark === -1 ? "" : url.slice(mark + 1)
}

/**
 * The browser's round trip. Every refusal after `returnTo` is known goes back there as `?error=`
 * with the code alone; a refusal before (a state nobody started) goes to the console.
 */
export const ssoBrowserHandlers = (options: EdgeOptions) =>
  HttpApiBuilder.group(RosterApi, "ssoBrowser", (handlers) => {
    type Request = Parameters<typeof serviceUrlsOf>[0]
    const urlsOf = (request: Request) => serviceUrlsOf(request, options.publicOrigin)
    const served = <A, E, R>(urls: ServiceUrls, useCase: (client: string) => Effect.Effect<A, E, R>) =>
      onServices(fromClient((client) => Effect.provideService(useCase(client), CurrentServiceUrls, urls)))
    /** A finished sign-in's answer: where its `returnTo` is, with its code, its cookie or its refusal. */
    const ended = (
      request: Request,
      finished: ReturnType<typeof finishOidcSso> | ReturnType<typeof finishSamlSso>
    ) =>
      Effect.flatMap(urlsOf(request), (urls) =>
        served(urls, () => finished).pipe(
          Effect.map(({ returnTo, outcome }) =>
            Result.isSuccess(outcome)
              ? signedIn(urls, returnTo, outcome.success)
              : refused(urls, returnTo, codeOf(toProblem(outcome.failure)))
          ),
          Effect.catch((error) => Effect.succeed(refused(urls, undefined, codeOf(toProblem(error))))),
          Effect.catchDefect(() => Effect.succeed(refused(urls, undefined, "internal_error")))
        )
      )
    return handlers
      .handle("startSso", ({ query, request }) =>
        Effect.flatMap(urlsOf(request), (urls) =>
          served(urls, (client) => startSso(query, client)).pipe(
            Effect.map(({ redirectTo, binding }) => toProvider(urls, redirectTo, binding)),
            Effect.catch((error) =>
              // Told to whoever asked, never to a returnTo: a refused returnTo, or too many starts.
              error._tag === "ReturnRefused" || error._tag === "RateLimited"
                ? Effect.fail(toProblem(error))
                : Effect.succeed(refused(urls, query.returnTo, codeOf(toProblem(error))))
            )
          )
        )
      )
      .handle("oidcCallback", ({ query, request }) =>
        ended(
          request,
          finishOidcSso({
            state: Redacted.make(query.state ?? ""),
            query: queryOf(request.url),
            binding: bindingOf(request)
          })
        )
      )
      .handle("samlAcs", ({ payload, request }) =>
        Effect.flatMap(urlsOf(request), (urls) =>
          served(urls, () =>
            acceptSamlReply({
              relayState: Redacted.make(payload.RelayState),
              samlResponse: payload.SAMLResponse
            })
          ).pipe(
            Effect.map(({ returnTo, outcome }) =>
              Result.isSuccess(outcome)
                ? HttpServerResponse.redirect(
                    `${urls.base}/api/v1/sso/saml/return?state=${encodeURIComponent(payload.RelayState)}`,
                    { status: 303, headers: { "cache-control": "no-store" } }
                  )
                : refused(urls, returnTo, codeOf(toProblem(outcome.failure)), 303)
            ),
            Effect.catch((error) => Effect.succeed(refused(urls, undefined, codeOf(toProblem(error)), 303)))
          )
        )
      )
      .handle("samlReturn", ({ query, request }) =>
        ended(request, finishSamlSso({ state: Redacted.make(query.state), binding: bindingOf(request) }))
      )
      .handle("samlMetadata", ({ params, request }) =>
        Effect.flatMap(urlsOf(request), (urls) =>
          served(urls, () => toCompletion(serviceProviderMetadata(params.id)))
        )
      )
  })

/** A product's back end exchanges the code its page received. */
export const SsoSignInHandlers = HttpApiBuilder.group(RosterApi, "ssoSignIn", (handlers) =>
  handlers.handle("exchangeSsoCode", ({ payload }) =>
    fromClient((client) =>
      onServices(toCompletion(exchangeSsoCode(Redacted.make(payload.code), client)))
    ).pipe(Effect.map(toLoginView))
  )
)
