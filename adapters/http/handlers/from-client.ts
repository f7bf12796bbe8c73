import { Effect } from "effect"
import { HttpServerRequest } from "effect/http"
import { CurrentOrigin } from "../../../core/index.ts"
import { throttledClient } from "../edge/routed.ts"

/**
 * Runs `useCase` with the client's address (for throttling) and the request's origin (its address
 * and `User-Agent`), which a session it opens keeps for its owner to recognise it by.
 */
export const fromClient = <A, E, R>(useCase: (client: string) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(throttledClient, (client) =>
    HttpServerRequest.HttpServerRequest.use((request) =>
      Effect.provideService(useCase(client), CurrentOrigin, {
        address: client,
        userAgent: request.headers["user-agent"] ?? null
      })
    )
  )
