import type { ComponentChildren } from "preact"
import { useId } from "preact/hooks"
import type { Outcome } from "../use-call.ts"
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

/** A labelled input with the API's message for its field beside it. */
export const Field = ({
  label,
  name,
  value,
  onValue,
  outcome,
  hint,
  type = "text",
  ...input
}: InputProps) => {
  const id = useId()
  const error = outcome.errorFor(name)
  const described = [hint === undefined ? "" : `${id}-hint`, error === undefined ? "" : `${id}-error`]
    .filter((part) => part !== "")
    .join(" ")
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        {...input}
        type={type as "text"}
        id={id}
        name={name}
        value={value}
        onInput={(event) => onValue(event.currentTarget.value)}
        aria-invalid={error === undefined ? undefined : "true"}
        aria-describedby={described === "" ? undefined : described}
      />
      {hint === undefined ? null : (
        <small id={`${id}-hint`} class="hint">
          {hint}
        </small>
      )}
      {error === undefined ? null : (
        <small id={`${id}-error`} class="field-error">
          {error}
        </small>
      )}
    </div>
  )
}

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
}) => {
  const id = useId()
  const error = props.outcome?.errorFor(props.name)
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <select
        id={id}
        name={props.name}
        value={props.value}
        onChange={(event) => props.onValue(event.currentTarget.value)}
        aria-invalid={error === undefined ? undefined : "true"}
        aria-describedby={error === undefined ? undefined : `${id}-error`}
      >
        {props.options.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      {error === undefined ? null : (
        <small id={`${id}-error`} class="field-error">
          {error}
        </small>
      )}
    </div>
  )
}

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
