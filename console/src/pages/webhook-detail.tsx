import { useState } from "preact/hooks"
import { allows, type Me, roster } from "../api.ts"
import { ConfirmButton, Section, Table, usePages, when } from "../components/controls.tsx"
import { Check, Form, Select } from "../components/form.tsx"
import { ProblemAlert } from "../components/problem-alert.tsx"
import { useAction } from "../use-call.ts"
import { EventChoice, type EventType, type EventTypeChoice } from "./event-choice.tsx"

type Endpoint = Awaited<ReturnType<typeof roster.webhooks.getWebhook>>
const statuses = ["pending", "succeeded", "failed", "exhausted"] as const

/** One endpoint: its events and switch, a test, a new secret, deletion, and its deliveries. */
export const WebhookDetail = (props: {
  readonly me: Me
  readonly endpoint: Endpoint
  readonly types: ReadonlyArray<EventTypeChoice>
  readonly onChanged: () => void
  readonly onSecret: (secret: string | null) => void
}) => {
  const { me, endpoint } = props
  const [events, setEvents] = useState<ReadonlyArray<string>>(endpoint.events)
  const [enabled, setEnabled] = useState(endpoint.enabled)
  const [status, setStatus] = useState("")
  const deliveries = usePages(
    (cursor) =>
      roster.webhooks
        .listDeliveries({
          id: endpoint.id,
          ...(cursor === undefined ? {} : { cursor }),
          ...(status === "" ? {} : { status: status as (typeof statuses)[number] })
        })
        .firstPage(),
    [status]
  )
  const update = useAction(
    () =>
      roster.webhooks.updateWebhook({ id: endpoint.id, events: events as ReadonlyArray<EventType>, enabled }),
    props.onChanged
  )
  const act = useAction(async (step: () => Promise<unknown>) => {
    await step()
    props.onChanged()
    deliveries.restart()
  })
  const writable = allows(me, "webhooks.updateWebhook")
  return (
    <Section title={`Endpoint ${endpoint.url}`}>
      <p>
        Registered {when(endpoint.createdAt)}. {endpoint.description}
      </p>
      {writable ? (
        <>
          <Form label="Change the endpoint" outcome={update} submit="Save" onSubmit={update.run}>
            <Check label="Enabled" checked={enabled} onChecked={setEnabled} />
            <EventChoice
              types={props.types}
              chosen={events}
              onChosen={setEvents}
              error={update.errorFor("events")}
            />
          </Form>
          <p class="actions">
            <button
              type="button"
              onClick={() => act.run(() => roster.webhooks.testWebhook({ id: endpoint.id }))}
            >
              Send a test event
            </button>
            <ConfirmButton
              label="Rotate the secret"
              question={`Rotate the signing secret of ${endpoint.url}?`}
              consequence="A new secret is shown once. For 24 hours every message carries both signatures, then only the new one's: update your receiver within that time."
              action="Rotate the secret"
              onConfirm={() =>
                act.run(() =>
                  roster.webhooks
                    .rotateWebhookSecret({ id: endpoint.id })
                    .then((made) => props.onSecret(made.secret))
                )
              }
            />
            <ConfirmButton
              label="Delete the endpoint"
              question={`Delete the endpoint ${endpoint.url}?`}
              consequence="It hears nothing more: no change is sent to it, and its deliveries go with it."
              action="Delete the endpoint"
              onConfirm={() => act.run(() => roster.webhooks.deleteWebhook({ id: endpoint.id }))}
            />
          </p>
          <ProblemAlert outcome={act} />
        </>
      ) : null}
      <Select
        label="Deliveries' status"
        name="status"
        value={status}
        onValue={setStatus}
        options={[["", "Any status"], ...statuses.map((value) => [value, value] as const)]}
      />
      <ProblemAlert outcome={deliveries} />
      <Table
        caption={`Deliveries to ${endpoint.url}`}
        columns={["Event", "Status", "Tries", "Last answer", "Next try"]}
        empty="none yet. A change this endpoint hears, or a test event, is delivered here."
        actions
      >
        {deliveries.items.map((delivery) => (
          <tr key={delivery.id}>
            <td>{delivery.type}</td>
            <td>{delivery.status}</td>
            <td>{delivery.attempts}</td>
            <td>{delivery.lastStatusCode ?? delivery.lastError ?? "—"}</td>
            <td>{when(delivery.nextAttemptAt)}</td>
            <td>
              {writable && (delivery.status === "exhausted" || delivery.status === "failed") ? (
                <button
                  type="button"
                  onClick={() =>
                    act.run(() => roster.webhooks.retryDelivery({ id: endpoint.id, deliveryId: delivery.id }))
                  }
                >
                  Retry
                </button>
              ) : null}
            </td>
          </tr>
        ))}
      </Table>
      {deliveries.pager}
    </Section>
  )
}
