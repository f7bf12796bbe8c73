import type { ComponentChildren } from "preact"
import type { Outcome } from "../use-call.ts"
import { Labelled } from "./labelled.tsx"
import { ProblemAlert } from "./problem-alert.tsx"

interface InputProps {
  readonly type?: "text" | "email" | "password" | "search" | "url" | "number" | "datetime-local"
  readonly required?: boolean
  readonly autoComplete?: string
  readonly inputMode?: "numeric" | "text"
  readonly label: string
  readonly name: string
  readonly value: string
  readonly onValue: (value: string) => void
  readonly outcome: Outcome
  readonly hint?: string
}

/** A labelled input with the API's message for its field beside it; a required one is marked. */
export const Field = ({
  label,
  name,
  value,
  onValue,
  outcome,
  hint,
  type = "text",
  ...input
}: InputProps) => (
  <Labelled label={label} required={input.required} hint={hint} error={outcome.errorFor(name)}>
    {(id, described) => (
      <input
        {...input}
        {...described}
        type={type as "text"}
        id={id}
        name={name}
        value={value}
        onInput={(event) => onValue(event.currentTarget.value)}
      />
    )}
  </Labelled>
)

/** A password's field: its autofill says whether it is the current password or a new one. */
export const PasswordField = ({
  fresh = false,
  label = "Password",
  ...props
}: Omit<InputProps, "type" | "autoComplete" | "label"> & {
  readonly fresh?: boolean
  readonly label?: string
}) => (
  <Field
    {...props}
    label={label}
    type="password"
    autoComplete={fresh ? "new-password" : "current-password"}
  />
)

export const Select = (props: {
  readonly label: string
  readonly name: string
  readonly value: string
  readonly onValue: (value: string) => void
  readonly outcome?: Outcome
  readonly options: ReadonlyArray<readonly [value: string, label: string]>
  /** Shown while nothing is chosen: what to choose. */
  readonly prompt?: string
  readonly required?: boolean
}) => (
  <Labelled label={props.label} required={props.required} error={props.outcome?.errorFor(props.name)}>
    {(id, described) => (
      <select
        {...described}
        id={id}
        required={props.required}
        name={props.name}
        value={props.value}
        onChange={(event) => props.onValue(event.currentTarget.value)}
      >
        {props.prompt === undefined ? null : (
          <option value="" disabled>
            {props.prompt}
          </option>
        )}
        {props.options.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    )}
  </Labelled>
)

/** A labelled text area for a long value (a certificate, a metadata document). */
export const TextArea = (props: {
  readonly label: string
  readonly name: string
  readonly value: string
  readonly onValue: (value: string) => void
  readonly outcome: Outcome
  readonly required?: boolean
  readonly hint?: string
}) => (
  <Labelled
    label={props.label}
    required={props.required}
    hint={props.hint}
    error={props.outcome.errorFor(props.name)}
  >
    {(id, described) => (
      <textarea
        {...described}
        id={id}
        name={props.name}
        rows={6}
        required={props.required}
        value={props.value}
        onInput={(event) => props.onValue(event.currentTarget.value)}
      />
    )}
  </Labelled>
)

export const Check = (props: {
  readonly label: string
  readonly checked: boolean
  readonly onChecked: (checked: boolean) => void
  readonly disabled?: boolean
}) => (
  <label class="check">
    <input
      type="checkbox"
      checked={props.checked}
      disabled={props.disabled}
      onChange={(event) => props.onChecked(event.currentTarget.checked)}
    />
    <span>{props.label}</span>
  </label>
)

/** A form that calls `onSubmit` without reloading the page, its problem shown at its end. */
export const Form = (props: {
  readonly label: string
  readonly outcome: Outcome
  readonly submit: string
  readonly onSubmit: () => void
  readonly children: ComponentChildren
}) => (
  <form
    aria-label={props.label}
    onSubmit={(event) => {
      event.preventDefault()
      props.onSubmit()
    }}
  >
    {props.children}
    <ProblemAlert outcome={props.outcome} />
    <button type="submit" disabled={props.outcome.busy}>
      {props.submit}
    </button>
  </form>
)
