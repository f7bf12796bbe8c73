import { useState } from "preact/hooks"

/**
 * A value to copy into another system (an IdP's settings), with its button. The button's name is
 * its visible text ("Copy ACS URL"), so what is seen and what is heard name it alike.
 */
export const CopyValue = (props: {
  /** What the value is, as the other system calls it. */
  readonly label: string
  /** The value's short name, in the button. */
  readonly short: string
  readonly value: string
  /** A value of many lines (a certificate): kept as written. */
  readonly block?: boolean
}) => {
  const [copied, setCopied] = useState(false)
  return (
    <>
      <dt>{props.label}</dt>
      <dd>
        {props.block === true ? (
          <pre>
            <code>{props.value}</code>
          </pre>
        ) : (
          <code>{props.value}</code>
        )}{" "}
        <button
          type="button"
          onClick={() => navigator.clipboard?.writeText(props.value).then(() => setCopied(true))}
        >
          Copy {props.short}
        </button>{" "}
        <span role="status">{copied ? "Copied" : ""}</span>
      </dd>
    </>
  )
}
