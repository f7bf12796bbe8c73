import { Context } from "effect"

interface WebHandler<C> {
  readonly handler: (request: Request, context: C) => Promise<Response>
  readonly dispose: () => Promise<void>
}

/**
 * A bare app's web handler, called with the request alone: the app needs nothing per request, but
 * its layer's types leave the request's context open.
 */
export const servedAlone = <C>(web: WebHandler<C>) => {
  const nothing = Context.empty() as C
  return { handler: (request: Request) => web.handler(request, nothing), dispose: web.dispose }
}
