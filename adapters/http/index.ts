export { SignatureRejected, WebhookVerifier } from "../payments/webhook-verifier.ts"
export type { EdgeOptions } from "./edge/guards.ts"
export { jsonLines, RequestLog, type RequestLogEntry } from "./edge/request-log.ts"
export { type ConnectionInfo, type HttpServices, makeWebHandler, type WebHandler } from "./web-handler.ts"
