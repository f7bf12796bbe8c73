import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import {
  addDomain,
  CurrentServiceUrls,
  createSsoConnection,
  DomainCursor,
  deleteSsoConnection,
  getDomain,
  linkSsoIdentity,
  listDomains,
  listSsoConnections,
  readSsoConnection,
  removeDomain,
  SsoConnectionCursor,
  updateSsoConnection,
  verifyDomain
} from "../../../core/index.ts"
import { RosterApi } from "../api/roster-api.ts"
import type { EdgeOptions } from "../edge/options.ts"
import { serviceUrlsOf } from "../sso-browser.ts"
import { asCaller } from "./as-caller.ts"
import { pageResponse } from "./page-response.ts"

/** The organisation's domains and connections; a connection's URLs are where the request reached Roster. */
export const ssoHandlers = (options: EdgeOptions) =>
  HttpApiBuilder.group(RosterApi, "sso", (handlers) => {
    const atService = <A, E, R>(
      request: Parameters<typeof serviceUrlsOf>[0],
      effect: Effect.Effect<A, E, R>
    ) =>
      Effect.flatMap(serviceUrlsOf(request, options.publicOrigin), (urls) =>
        Effect.provideService(effect, CurrentServiceUrls, urls)
      )
    return handlers
      .handle("addDomain", ({ payload }) => asCaller((actor) => addDomain(actor, payload)))
      .handle("listDomains", ({ query: { cursor, ...rest }, request }) =>
        asCaller((actor) =>
          listDomains(actor, cursor === undefined ? rest : { ...rest, after: cursor })
        ).pipe(Effect.map(pageResponse(DomainCursor, request)))
      )
      .handle("getDomain", ({ params }) => asCaller((actor) => getDomain(actor, params.id)))
      .handle("verifyDomain", ({ params, payload }) =>
        asCaller((actor) => verifyDomain(actor, params.id, payload))
      )
      .handle("removeDomain", ({ params }) => asCaller((actor) => removeDomain(actor, params.id)))
      .handle("createSsoConnection", ({ payload, request }) =>
        atService(
          request,
          asCaller((actor) => createSsoConnection(actor, payload))
        )
      )
      .handle("listSsoConnections", ({ query: { cursor, ...rest }, request }) =>
        atService(
          request,
          asCaller((actor) =>
            listSsoConnections(actor, cursor === undefined ? rest : { ...rest, after: cursor })
          ).pipe(Effect.map(pageResponse(SsoConnectionCursor, request)))
        )
      )
      .handle("getSsoConnection", ({ params, request }) =>
        atService(
          request,
          asCaller((actor) => readSsoConnection(actor, params.id))
        )
      )
      .handle("updateSsoConnection", ({ params, payload, request }) =>
        atService(
          request,
          asCaller((actor) => updateSsoConnection(actor, params.id, payload))
        )
      )
      .handle("deleteSsoConnection", ({ params, request }) =>
        atService(
          request,
          asCaller((actor) => deleteSsoConnection(actor, params.id))
        )
      )
      .handle("linkSsoIdentity", ({ params, payload }) =>
        asCaller((actor) => linkSsoIdentity(actor, params.id, payload))
      )
  })
