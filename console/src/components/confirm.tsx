import type { ComponentChildren } from "preact"
import { useId, useRef } from "preact/hooks"

/**
 * A destructive action's button, marked as one, that asks in a modal dialog before it acts: the
 * dialog names what goes and what follows (`question`, `consequence`), may ask for more
 * (`children`: a password), and focuses Cancel first. Escape or Cancel close it and change nothing;
 * `action` acts and closes it, but for a dialog that asks for more whose `onConfirm` answers
 * `false`: it stays, for its problem (shown among `children`) to be read and mended.
 */
export const ConfirmButton = (props: {
  readonly label: string
  readonly question: string
  readonly consequence: string
  readonly action: string
  readonly onConfirm: () => unknown
  readonly disabled?: boolean | undefined
  readonly children?: ComponentChildren
}) => {
  const dialog = useRef<HTMLDialogElement>(null)
  const cancel = useRef<HTMLButtonElement>(null)
  const id = useId()
  const close = () => dialog.current?.close()
  return (
    <>
      <button
        type="button"
        class="destructive"
        disabled={props.disabled}
        onClick={() => {
          dialog.current?.showModal()
          cancel.current?.focus()
        }}
      >
        {props.label}
      </button>
      <dialog
        ref={dialog}
        class="confirm"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={`${id}-question`}
        aria-describedby={`${id}-consequence`}
      >
        <form
          onSubmit={async (event) => {
            event.preventDefault()
            const done = await props.onConfirm()
            if (done !== false || props.children === undefined) close()
          }}
        >
          <h2 id={`${id}-question`}>{props.question}</h2>
          <p id={`${id}-consequence`}>{props.consequence}</p>
          {props.children}
          <div class="actions">
            <button type="button" ref={cancel} autofocus onClick={close}>
              Cancel
            </button>
            <button type="submit" class="danger">
              {props.action}
            </button>
          </div>
        </form>
      </dialog>
    </>
  )
}
