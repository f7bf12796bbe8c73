import type { LookupAddress } from "node:dns"
import { lookup as systemLookup } from "node:dns"
import { request as httpRequest, type IncomingMessage } from "node:http"
import { request as httpsRequest } from "node:https"
import { Duration, Effect, Layer, Redacted } from "effect"
import { Webhook } from "standardwebhooks"
import { DestinationRefused, type OutboundMessage, type SendResult, WebhookSender } from "../../core/index.ts"
import { isPrivateAddress, literalAddress } from "./destinations.ts"

/** Resolves a host name to all its addresses, as `dns.lookup` with `all` does. */
export type Resolve = (hostname: string) => Promise<ReadonlyArray<LookupAddress>>

export interface WebhookSenderOptions {
  /** Lifts both rules, https only and public addresses only: for tests and private networks. */
  readonly allowPrivate: boolean
  /** How long a try may take, answer included; 15 seconds when absent. */
  readonly timeout?: Duration.Input
  /** How host names are resolved; the system's resolver when absent. */
  readonly resolve?: Resolve
}

/** How much of an answer is read and kept. */
const keptBytes = 1024

const systemResolve: Resolve = (hostname) =>
  new Promise((resolve, reject) =>
    systemLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)))
  )

const isLocalName = (hostname: string) => hostname === "localhost" || hostname.endsWith(".localhost")

/** Seconds to wait that a `Retry-After` header asks for, as seconds or as an HTTP date. */
const retryAfterOf = (header: string | undefined): number | undefined => {
  if (header === undefined) return undefined
  if (/^\d+$/.test(header.trim())) return Number(header.trim())
  const date = Date.parse(header)
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000))
}

const signatureOf = (message: OutboundMessage, at: Date) =>
  message.secrets
    .map((secret) => new Webhook(Redacted.value(secret)).sign(message.id, at, message.body))
    .join(" ")

/**
 * Posts signed messages over node's HTTP client, which every runtime Roster runs on provides and
 * which follows no redirect. The connection goes to an address this sender resolved and checked
 * itself (its `lookup`), so a name that resolves elsewhere between the check and the connection
 * (DNS rebinding) reaches nothing it may not.
 */
export const httpWebhookSenderLayer = (options: WebhookSenderOptions) =>
  Layer.sync(WebhookSender, () => {
    const resolve = options.resolve ?? systemResolve
    const timeoutMs = Duration.toMillis(Duration.fromInputUnsafe(options.timeout ?? Duration.seconds(15)))
    const allowed = (addresses: ReadonlyArray<LookupAddress>) =>
      options.allowPrivate || addresses.every(({ address }) => !isPrivateAddress(address))
    const lookup = (
      hostname: string,
      lookupOptions: { readonly all?: boolean },
      callback: (error: Error | null, address: string | ReadonlyArray<LookupAddress>, family?: number) => void
    ) => {
      resolve(hostname).then(
        (addresses) => {
          const first = addresses[0]
          if (first === undefined || !allowed(addresses)) {
            return callback(new Error(`refused: ${hostname} resolves to a private address`), "")
          }
          if (lookupOptions.all === true) return callback(null, addresses)
          return callback(null, first.address, first.family)
        },
        (error: Error) => callback(error, "")
      )
    }
    const refusal = (url: URL): DestinationRefused | "resolve" | undefined => {
      if (options.allowPrivate) return undefined
      if (url.protocol !== "https:") return new DestinationRefused({ reason: "scheme" })
      const literal = literalAddress(url.hostname)
      if (literal !== undefined) {
        return isPrivateAddress(literal) ? new DestinationRefused({ reason: "private_address" }) : undefined
      }
      return isLocalName(url.hostname) ? new DestinationRefused({ reason: "private_address" }) : "resolve"
    }
    const post = (message: OutboundMessage) =>
      new Promise<SendResult>((settle) => {
        const url = new URL(message.url)
        const refused = refusal(url)
        if (refused instanceof DestinationRefused) {
          return settle({
            error: `refused: ${refused.reason === "scheme" ? "not https" : "a private address"}`
          })
        }
        const at = new Date()
        const literal = literalAddress(url.hostname)
        if (literal !== undefined && !options.allowPrivate && isPrivateAddress(literal)) {
          return settle({ error: "refused: a private address" })
        }
        const send = url.protocol === "https:" ? httpsRequest : httpRequest
        const request = send(url, {
          method: "POST",
          ...(literal === undefined ? { lookup: lookup as never } : {}),
          headers: {
            "content-type": "application/json",
            "user-agent": "Roster-Webhooks/1",
            "webhook-id": message.id,
            "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
            "webhook-signature": signatureOf(message, at)
          }
        })
        const timer = setTimeout(
          () => request.destroy(new Error(`timed out after ${timeoutMs} ms`)),
          timeoutMs
        )
        request.on("error", (error) => {
          clearTimeout(timer)
          settle({ error: error.message.slice(0, 200) })
        })
        request.on("response", (response: IncomingMessage) => {
          const chunks: Array<Buffer> = []
          let length = 0
          const done = () => {
            clearTimeout(timer)
            const retryAfter = retryAfterOf(response.headers["retry-after"])
            const statusCode = response.statusCode ?? 0
            settle({
              statusCode,
              ...(retryAfter !== undefined && (statusCode === 429 || statusCode === 503)
                ? { retryAfter }
                : {}),
              response: Buffer.concat(chunks).subarray(0, keptBytes).toString("utf8")
            })
            response.destroy()
          }
          response.on("data", (chunk: Buffer) => {
            chunks.push(chunk)
            length += chunk.length
            if (length >= keptBytes) done()
          })
          response.on("end", done)
          response.on("error", done)
        })
        request.end(message.body)
      })
    return WebhookSender.of({
      checkDestination: (url) =>
        Effect.gen(function* () {
          const parsed = new URL(url)
          const refused = refusal(parsed)
          if (refused === undefined) return
          if (refused instanceof DestinationRefused) return yield* refused
          const addresses = yield* Effect.promise(() => resolve(parsed.hostname).catch(() => []))
          // A name that does not resolve now is checked again at each send.
          if (!allowed(addresses)) return yield* new DestinationRefused({ reason: "private_address" })
        }),
      send: (message) => Effect.promise(() => post(message))
    })
  })
