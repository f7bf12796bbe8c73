import type { ComponentChildren } from "preact"
import { useId } from "preact/hooks"
import { useShowsOwnError } from "./problem-alert.tsx"

/**
 * A required field's mark beside its label, outside it so that the label names the field alone
 * (the control's `required` says so to assistive technology itself).
 */
const RequiredMark = (props: { readonly required?: boolean | undefined }) =>
  props.required === true ? (
    <span class="required" aria-hidden="true" title="required">
      {" "}
      *
    </span>
  ) : null

/** What a control is told to point at: its hint and its error, by id, where it has them. */
interface Described {
  readonly "aria-invalid": "true" | undefined
  readonly "aria-describedby": string | undefined
}

/**
 * A field's frame: its label (marked when required), the control `children` makes with the ids
 * of its hint and of the API's message for it, then those two beside it.
 */
export const Labelled = (props: {
  readonly label: string
  /** The field's name in the request, whose message is shown here. */
  readonly name: string
  readonly required?: boolean | undefined
  readonly hint?: string | undefined
  readonly error: string | undefined
  readonly children: (id: string, described: Described) => ComponentChildren
}) => {
  const id = useId()
  useShowsOwnError(props.name)
  const { hint, error } = props
  const described = [hint === undefined ? "" : `${id}-hint`, error === undefined ? "" : `${id}-error`]
    .filter((part) => part !== "")
    .join(" ")
  return (
    <div class="field">
      <span class="label">
        <label for={id}>{props.label}</label>
        <RequiredMark required={props.required} />
      </span>
      {props.children(id, {
        "aria-invalid": error === undefined ? undefined : "true",
        "aria-describedby": described === "" ? undefined : described
      })}
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
