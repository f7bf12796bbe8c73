import type { OpenApi } from "effect/http-api"
import { oncePerMount } from "./edge/routed.ts"

/**
 * The OpenAPI document's text under the path a host mounts Roster at, the document built on the
 * first request for it: building it leaves ~5 MB of schemas derived from the API's held for the
 * life of the process, which most instances never need. Under a host's path the document names it
 * as its server, so generated clients call there.
 */
export const openApiOnDemand = (build: () => OpenApi.OpenAPISpec) => {
  let document: OpenApi.OpenAPISpec | undefined
  return oncePerMount((mountPath) => {
    document ??= build()
    return JSON.stringify(
      mountPath === "" ? document : { ...document, servers: [{ url: mountPath, description: "This server" }] }
    )
  })
}
