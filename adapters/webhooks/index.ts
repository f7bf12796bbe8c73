export { isPrivateAddress } from "./destinations.ts"
export { httpWebhookSenderLayer, type Resolve, type WebhookSenderOptions } from "./http-webhook-sender.ts"
