import type { ComponentChildren } from "preact"
import { useEffect, useState } from "preact/hooks"
import type { RosterPage } from "../../../adapters/http/promise-client-types.ts"
import { useLoad } from "../use-call.ts"

/** A button that asks once more before it acts: the second press within five seconds acts. */
export const ConfirmButton = (props: {
  readonly label: string
  readonly onConfirm: () => void
  readonly disabled?: boolean
}) => {
  const [asking, setAsking] = useState(false)
  useEffect(() => {
    if (!asking) return
    const timer = setTimeout(() => setAsking(false), 5000)
    return () => clearTimeout(timer)
  }, [asking])
  return (
    <button
      type="button"
      class={asking ? "danger" : undefined}
      disabled={props.disabled}
      onClick={() => {
        if (!asking) return setAsking(true)
        setAsking(false)
        props.onConfirm()
      }}
    >
      {asking ? `Confirm: ${props.label.toLowerCase()}` : props.label}
    </button>
  )
}

/** A secret the API shows once: to copy now, since it cannot be read again. */
export const SecretOnce = (props: { readonly label: string; readonly secret: string | null }) => {
  const [copied, setCopied] = useState(false)
  if (props.secret === null) return null
  return (
    <div class="secret" role="status">
      <p>
        <strong>{props.label}</strong>: copy it now, it is not shown again.
      </p>
      <code data-secret>{props.secret}</code>{" "}
      <button
        type="button"
        onClick={() => navigator.clipboard?.writeText(props.secret ?? "").then(() => setCopied(true))}
      >
        {copied ? "Copied" : "Copy"}
      </button>
    </div>
  )
}

/** A list read a page at a time: the API's cursors, forward, and back to the first page. */
export const usePages = <T,>(
  read: (cursor: string | undefined) => Promise<RosterPage<T>>,
  keys: ReadonlyArray<unknown> = []
) => {
  const [cursors, setCursors] = useState<ReadonlyArray<string | undefined>>([undefined])
  const cursor = cursors.at(-1)
  const loaded = useLoad(() => read(cursor), [cursor, ...keys])
  const next = loaded.data?.next
  return {
    ...loaded,
    items: loaded.data?.items ?? [],
    restart: () => (cursors.length === 1 ? loaded.reload() : setCursors([undefined])),
    pager: (
      <nav class="pager" aria-label="Pages of the list">
        <button
          type="button"
          disabled={cursors.length === 1}
          onClick={() => setCursors(cursors.slice(0, -1))}
        >
          Previous page
        </button>
        <span>Page {cursors.length}</span>
        <button
          type="button"
          disabled={next === undefined}
          onClick={() => next !== undefined && setCursors([...cursors, next])}
        >
          Next page
        </button>
      </nav>
    )
  }
}

export const Section = (props: { readonly title: string; readonly children: ComponentChildren }) => (
  <section aria-label={props.title}>
    <h2>{props.title}</h2>
    {props.children}
  </section>
)

export const when = (iso: string | null | undefined) =>
  iso === null || iso === undefined ? "—" : new Date(iso).toLocaleString()

/** A table with its caption and column headers; `actions` adds a last column for each row's buttons. */
export const Table = (props: {
  readonly caption: string
  readonly columns: ReadonlyArray<string>
  readonly actions?: boolean
  readonly children: ComponentChildren
}) => (
  <table>
    <caption>{props.caption}</caption>
    <thead>
      <tr>
        {props.columns.map((column) => (
          <th key={column} scope="col">
            {column}
          </th>
        ))}
        {props.actions === true ? (
          <th scope="col">
            <span class="visually-hidden">Actions</span>
          </th>
        ) : null}
      </tr>
    </thead>
    <tbody>{props.children}</tbody>
  </table>
)
