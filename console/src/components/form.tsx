import type { ComponentChildren } from "preact"
import { useRef } from "preact/hooks"
import type { Outcome } from "../use-call.ts"
import { Labelled } from "./labelled.tsx"
import { ProblemAlert, ShownFields } from "./problem-alert.tsx"
import { Unavailable } from "./unavailable.tsx"

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
  <Labelled label={label} name={name} required={input.required} hint={hint} error={outcome.errorFor(name)}>
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
  <Labelled
    label={props.label}
    name={props.name}
    required={props.required}
    error={props.outcome?.errorFor(props.name)}
  >
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
    name={props.name}
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

/** A checkbox inside its label; `hint` (what it means) is part of the label, read with it. */
export const Check = (props: {
  readonly label: string
  readonly hint?: string
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
    <span>
      {props.label}
      {props.hint === undefined ? null : (
        <>
          {" "}
          <small>{props.hint}</small>
        </>
      )}
    </span>
  </label>
)

/**
 * A form that calls `onSubmit` without reloading the page, its problem summed up first, in plain
 * words (each field's own message is beside it). Where the deployment cannot do what it asks
 * (`unavailable`: why, and what the operator sets), it is shown disabled with that line.
 */
export const Form = (props: {
  readonly label: string
  readonly outcome: Outcome
  readonly submit: string
  readonly onSubmit: () => void
  readonly unavailable?: string | undefined
  readonly children: ComponentChildren
}) => {
  const off = props.unavailable !== undefined
  // The fields the last render showed, for the summary; this render's fill a new set.
  const fields = useRef(new Set<string>())
  const shown = fields.current
  fields.current = new Set()
  return (
    <form
      aria-label={props.label}
      onSubmit={(event) => {
        event.preventDefault()
        if (!off) props.onSubmit()
      }}
    >
      <ProblemAlert outcome={props.outcome} fieldsAre="below" shown={shown} />
      <Unavailable why={props.unavailable} />
      <fieldset class="plain" disabled={off}>
        <ShownFields.Provider value={fields.current}>{props.children}</ShownFields.Provider>
      </fieldset>
      <button type="submit" disabled={off || props.outcome.busy}>
        {props.submit}
      </button>
    </form>
  )
}
