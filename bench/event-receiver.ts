// The delivery bench's receiver, a process of its own on the load's core: it verifies every message
// with the Standard Webhooks library, as a product's receiver would, and counts the events it got
// once each. `GET /count` answers how many. Started by bench/event-delivery.ts.
import { Webhook } from "standardwebhooks"

const ids = new Set<string>()
let webhook: Webhook | undefined
let unverified = 0

const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(request) {
    const path = new URL(request.url).pathname
    if (path === "/count") return Response.json({ received: ids.size, unverified })
    const body = await request.text()
    if (path === "/secret") {
      webhook = new Webhook(body)
      return new Response(null, { status: 204 })
    }
    try {
      webhook?.verify(body, {
        "webhook-id": request.headers.get("webhook-id") ?? "",
        "webhook-timestamp": request.headers.get("webhook-timestamp") ?? "",
        "webhook-signature": request.headers.get("webhook-signature") ?? ""
      })
      ids.add(request.headers.get("webhook-id") ?? "")
    } catch {
      unverified++
      return new Response(null, { status: 400 })
    }
    return new Response(null, { status: 204 })
  }
})
console.log(`receiver listening on ${server.port}`)
