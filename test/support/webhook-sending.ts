import { Effect, Layer, Redacted } from "effect"
import { type OutboundMessage, type SendResult, WebhookSender } from "../../core/index.ts"

/** A message as the recording sender saw it: its secrets in clear, for the test to check. */
export interface Sent extends Omit<OutboundMessage, "secrets"> {
  readonly secrets: ReadonlyArray<string>
  readonly type: string
  readonly data: Record<string, unknown>
}

/**
 * A sender that records what it is handed and answers from `answers` in turn (then
 * `otherwise.answer`, 204 unless set), accepting every URL: the core's rules, without a network.
 */
export const recordingSender = () => {
  const sent: Array<Sent> = []
  const answers: Array<SendResult> = []
  const otherwise: { answer: SendResult } = { answer: { statusCode: 204 } }
  const layer = Layer.succeed(
    WebhookSender,
    WebhookSender.of({
      checkDestination: () => Effect.void,
      send: (message) =>
        Effect.sync(() => {
          const { type, data } = JSON.parse(message.body)
          sent.push({ ...message, secrets: message.secrets.map(Redacted.value), type, data })
          return answers.shift() ?? otherwise.answer
        })
    })
  )
  return { sent, answers, otherwise, layer }
}
