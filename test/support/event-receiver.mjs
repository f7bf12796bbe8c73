// A receiver of Roster's outbound events, run as a process of its own: every message is verified
// with the Standard Webhooks reference library, as a product's receiver would. What it answers is
// set through /control; what it received is read there too.
import { createServer } from "node:http"
import { Webhook } from "standardwebhooks"

const port = Number(process.argv[2] ?? 0)
let secrets = []
let plan = []
let otherwise = 204
const received = []

const answerWith = (response, status, body = "") => {
  response.writeHead(status, { "content-type": "application/json" })
  response.end(body)
}

const server = createServer((request, response) => {
  const chunks = []
  request.on("data", (chunk) => chunks.push(chunk))
  request.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8")
    if (request.url === "/control/received") return answerWith(response, 200, JSON.stringify(received))
    if (request.url === "/control/set") {
      const set = JSON.parse(body)
      secrets = set.secrets ?? secrets
      plan = set.plan ?? plan
      otherwise = set.otherwise ?? otherwise
      return answerWith(response, 204)
    }
    const headers = {
      "webhook-id": request.headers["webhook-id"] ?? "",
      "webhook-timestamp": request.headers["webhook-timestamp"] ?? "",
      "webhook-signature": request.headers["webhook-signature"] ?? ""
    }
    const verifiedBy = secrets.filter((secret) => {
      try {
        new Webhook(secret).verify(body, headers)
        return true
      } catch {
        return false
      }
    })
    const status = plan.length > 0 ? plan.shift() : otherwise
    let type = null
    try {
      type = JSON.parse(body).type
    } catch {}
    received.push({
      id: headers["webhook-id"],
      type,
      body,
      signatures: headers["webhook-signature"].split(" ").length,
      verifiedBy: verifiedBy.length,
      answered: status,
      at: Date.now()
    })
    if (verifiedBy.length === 0) return answerWith(response, 400, '{"error":"unverified"}')
    answerWith(response, status, status >= 300 ? '{"error":"told to fail"}' : "")
  })
})
server.listen(port, "127.0.0.1", () => {
  console.log(`receiver listening on ${server.address().port}`)
})
process.on("SIGTERM", () => server.close(() => process.exit(0)))
