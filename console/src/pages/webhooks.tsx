import { useState } from "preact/hooks"
import { allows, type Me, roster } from "../api.ts"
import { SecretOnce, Section, Table, usePages } from "../components/controls.tsx"
import { Field, Form } from "../components/form.tsx"
import { ProblemAlert } from "../components/problem-alert.tsx"
import { useAction, useLoad } from "../use-call.ts"
import { EventChoice, type EventType, everyEvent } from "./event-choice.tsx"
import { WebhookDetail } from "./webhook-detail.tsx"

/** Webhook endpoints: register one (its signing secret shown once), and manage each. */
export const Webhooks = ({ me }: { readonly me: Me }) => {
  const types = useLoad(() => roster.webhooks.listEventTypes())
  const choices = [everyEvent, ...(types.data ?? [])]
  const endpoints = usePages((cursor) =>
    roster.webhooks.listWebhooks(cursor === undefined ? {} : { cursor }).firstPage()
  )
  const [open, setOpen] = useState<string | undefined>(undefined)
  const [url, setUrl] = useState("")
  const [description, setDescription] = useState("")
  const [events, setEvents] = useState<ReadonlyArray<string>>([])
  const [secret, setSecret] = useState<string | null>(null)
  const create = useAction(
    () =>
      roster.webhooks.createWebhook({
        url,
        events: events as ReadonlyArray<EventType>,
        ...(description === "" ? {} : { description })
      }),
    (made) => {
      setUrl("")
      setDescription("")
      setEvents([])
      setSecret(made.secret)
      endpoints.restart()
    }
  )
  const selected = endpoints.items.find((endpoint) => endpoint.id === open)
  return (
    <>
      <ProblemAlert outcome={endpoints} />
      <Table
        caption="Webhook endpoints"
        columns={["URL", "Events", "Enabled"]}
        actions
        empty="none yet. Register your product's https endpoint below to hear about changes."
      >
        {endpoints.items.map((endpoint) => (
          <tr key={endpoint.id}>
            <td>{endpoint.url}</td>
            <td>{endpoint.events.join(", ")}</td>
            <td>{endpoint.enabled ? "yes" : "no"}</td>
            <td>
              <button
                type="button"
                aria-expanded={open === endpoint.id}
                onClick={() => setOpen(open === endpoint.id ? undefined : endpoint.id)}
              >
                Manage {endpoint.url}
              </button>
            </td>
          </tr>
        ))}
      </Table>
      {endpoints.pager}
      {selected === undefined ? null : (
        <WebhookDetail
          key={selected.id}
          me={me}
          endpoint={selected}
          types={choices}
          onChanged={endpoints.reload}
          onSecret={setSecret}
        />
      )}
      <SecretOnce label="The signing secret" secret={secret} />
      {selected === undefined && allows(me, "webhooks.createWebhook") ? (
        <Section title="Register an endpoint">
          <Form label="Register an endpoint" outcome={create} submit="Register" onSubmit={create.run}>
            <Field
              label="URL (https)"
              name="url"
              type="url"
              value={url}
              onValue={setUrl}
              outcome={create}
              required
            />
            <Field
              label="Description"
              name="description"
              value={description}
              onValue={setDescription}
              outcome={create}
            />
            <EventChoice
              types={choices}
              chosen={events}
              onChosen={setEvents}
              error={create.errorFor("events")}
            />
          </Form>
        </Section>
      ) : null}
    </>
  )
}
