import type { roster } from "../api.ts"
import { Check } from "../components/form.tsx"
import { useShowsOwnError } from "../components/problem-alert.tsx"

export type EventType = Awaited<ReturnType<typeof roster.webhooks.getWebhook>>["events"][number]

/** An event type an endpoint may hear, with what it announces. */
export interface EventTypeChoice {
  readonly type: string
  readonly description: string
}

/** `*`: every event of the catalog, those added to it later too. */
export const everyEvent: EventTypeChoice = {
  type: "*",
  description: "Every event, those added to the catalog later too"
}

/** The events a webhook endpoint takes, from the catalog, each with its description. */
export const EventChoice = (props: {
  readonly types: ReadonlyArray<EventTypeChoice>
  readonly chosen: ReadonlyArray<string>
  readonly onChosen: (chosen: ReadonlyArray<string>) => void
  readonly error: string | undefined
}) => {
  useShowsOwnError("events")
  return (
    <fieldset>
      <legend>Events</legend>
      <div class="choices">
        {props.types.map(({ type, description }) => (
          <div key={type}>
            <Check
              label={type === "*" ? "All events (*)" : type}
              hint={description}
              checked={props.chosen.includes(type)}
              onChecked={(on) =>
                props.onChosen(on ? [...props.chosen, type] : props.chosen.filter((t) => t !== type))
              }
            />
          </div>
        ))}
      </div>
      {props.error === undefined ? null : <small class="field-error">{props.error}</small>}
    </fieldset>
  )
}
