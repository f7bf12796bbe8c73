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

/**
 * A required field's mark beside its label, outside it so that the label names the field alone
 * (the input's `required` says so to assistive technology itself).
 */
const RequiredMark = (props: { readonly required?: boolean | undefined }) =>
  props.required === true ? (
    <span class="required" aria-hidden="true" title="required">
      {" "}
      *
    </span>
  ) : null

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
}: InputProps) => {
  const id = useId()
  const error = outcome.errorFor(name)
  const described = [hint === undefined ? "" : `${id}-hint`, error === undefined ? "" : `${id}-error`]
    .filter((part) => part !== "")
    .join(" ")
  return (
    <div class="field">
      <span class="label">
        <label for={id}>{label}</label>
        <RequiredMark required={input.required} />
      </span>
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
  /** Shown while nothing is chosen: what to choose. */
  readonly prompt?: string
  readonly required?: boolean
}) => {
  const id = useId()
  const error = props.outcome?.errorFor(props.name)
  return (
    <div class="field">
      <span class="label">
        <label for={id}>{props.label}</label>
        <RequiredMark required={props.required} />
      </span>
      <select
        id={id}
        required={props.required}
        name={props.name}
        value={props.value}
        onChange={(event) => props.onValue(event.currentTarget.value)}
        aria-invalid={error === undefined ? undefined : "true"}
        aria-describedby={error === undefined ? undefined : `${id}-error`}
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

/** A labelled text area for a long value (a certificate, a metadata document). */
export const TextArea = (props: {
  readonly label: string
  readonly name: string
  readonly value: string
  readonly onValue: (value: string) => void
  readonly outcome: Outcome
  readonly required?: boolean
  readonly hint?: string
}) => {
  const id = useId()
  const error = props.outcome.errorFor(props.name)
  return (
    <div class="field">
      <span class="label">
        <label for={id}>{props.label}</label>
        <RequiredMark required={props.required} />
      </span>
      <textarea
        id={id}
        name={props.name}
        rows={6}
        required={props.required}
        value={props.value}
        onInput={(event) => props.onValue(event.currentTarget.value)}
        aria-invalid={error === undefined ? undefined : "true"}
        aria-describedby={
          error === undefined ? (props.hint === undefined ? undefined : `${id}-hint`) : `${id}-error`
        }
      />
      {props.hint === undefined ? null : (
        <small id={`${id}-hint`} class="hint">
          {props.hint}
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
