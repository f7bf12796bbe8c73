import { type ComponentChildren, toChildArray } from "preact"
import { useLayoutEffect, useRef, useState } from "preact/hooks"
import type { RosterPage } from "../../../adapters/http/promise-client-types.ts"
import { useLoad } from "../use-call.ts"

export { ConfirmButton } from "./confirm.tsx"

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

/**
 * A list read a page at a time: the API's cursors, forward, and back to the first page. A list
 * whose first page is all of it shows no paging at all.
 */
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
    pager:
      cursors.length === 1 && next === undefined ? null : (
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

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" })
const steps: ReadonlyArray<readonly [Intl.RelativeTimeFormatUnit, number]> = [
  ["second", 60],
  ["minute", 60],
  ["hour", 24]
]

/** An instant in the browser's locale: relative within a day ("5 minutes ago"), else its date and time. */
export const when = (iso: string | null | undefined) => {
  if (iso === null || iso === undefined) return "—"
  const at = new Date(iso)
  let amount = (at.getTime() - Date.now()) / 1000
  for (const [unit, size] of steps) {
    if (Math.abs(amount) < size) return relative.format(Math.round(amount), unit)
    amount /= size
  }
  return at.toLocaleString()
}

/**
 * A table with its caption and column headers; `actions` adds a last column for each row's buttons.
 * Without rows it says what to do next (`empty`). On a narrow screen each row is a card whose cells
 * carry their column's name, so nothing scrolls sideways.
 */
export const Table = (props: {
  readonly caption: string
  readonly columns: ReadonlyArray<string>
  readonly actions?: boolean
  /** What to do next when there is no row yet: every list says it. */
  readonly empty: string
  readonly children: ComponentChildren
}) => {
  const body = useRef<HTMLTableSectionElement>(null)
  useLayoutEffect(() => {
    for (const row of Array.from(body.current?.rows ?? [])) {
      Array.from(row.cells).forEach((cell, index) => {
        const column = props.columns[index]
        if (column !== undefined) cell.dataset.label = column
      })
    }
  })
  if (toChildArray(props.children).length === 0) {
    return (
      <p class="empty">
        <strong>{props.caption}</strong>: {props.empty}
      </p>
    )
  }
  return (
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
      <tbody ref={body}>{props.children}</tbody>
    </table>
  )
}
