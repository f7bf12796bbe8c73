import type { roster } from "../api.ts"
import { Check } from "../components/form.tsx"

export type EventType = Awaited<ReturnType<typeof roster.webhooks.getWebhook>>["events"][number]

/** The events a webhook endpoint takes, from the catalog; `*` for all of them, those to come too. */
export const EventChoice = (props: {
  readonly types: ReadonlyArray<string>
  readonly chosen: ReadonlyArray<string>
  readonly onChosen: (chosen: ReadonlyArray<string>) => void
  readonly error: string | undefined
}) => (
  <fieldset>
    <legend>Events</legend>
    <div class="choices">
      {props.types.map((type) => (
        <div key={type}>
          <Check
            label={type}
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
