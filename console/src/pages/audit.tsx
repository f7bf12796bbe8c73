import { useState } from "preact/hooks"
import { AuditAction } from "../../../core/model/audit.ts"
import { roster } from "../api.ts"
import { Section, Table, usePages, when } from "../components/controls.tsx"
import { Field, Select } from "../components/form.tsx"
import { ProblemAlert } from "../components/problem-alert.tsx"

type Action = (typeof AuditAction.literals)[number]

interface Filter {
  readonly action: string
  readonly actorId: string
  readonly targetId: string
  readonly since: string
}

const empty: Filter = { action: "", actorId: "", targetId: "", since: "" }

/** The audit record, newest first: by action, actor, target and time, a page at a time. */
export const Audit = () => {
  const [draft, setDraft] = useState(empty)
  const [filter, setFilter] = useState(empty)
  const entries = usePages(
    (cursor) =>
      roster.audit
        .listEvents({
          ...(cursor === undefined ? {} : { cursor }),
          ...(filter.action === "" ? {} : { action: filter.action as Action }),
          ...(filter.actorId === "" ? {} : { actorId: filter.actorId }),
          ...(filter.targetId === "" ? {} : { targetId: filter.targetId }),
          ...(filter.since === "" ? {} : { since: new Date(filter.since).toISOString() })
        })
        .firstPage(),
    [filter]
  )
  const set = (field: keyof Filter) => (value: string) => setDraft({ ...draft, [field]: value })
  return (
    <>
      <Section title="Filter the record">
        <form
          class="filters"
          aria-label="Filter the record"
          onSubmit={(event) => {
            event.preventDefault()
            setFilter(draft)
          }}
        >
          <Select
            label="Action"
            name="action"
            value={draft.action}
            onValue={set("action")}
            options={[["", "Any action"], ...AuditAction.literals.map((action) => [action, action] as const)]}
          />
          <Field
            label="Actor id"
            name="actorId"
            value={draft.actorId}
            onValue={set("actorId")}
            outcome={entries}
          />
          <Field
            label="Target id"
            name="targetId"
            value={draft.targetId}
            onValue={set("targetId")}
            outcome={entries}
          />
          <Field
            label="Since"
            name="since"
            type="datetime-local"
            value={draft.since}
            onValue={set("since")}
            outcome={entries}
          />
          <button type="submit">Apply</button>
        </form>
      </Section>
      <ProblemAlert outcome={entries} />
      <Table caption="Audit record" columns={["When", "Action", "Actor", "Target", "Changes"]}>
        {entries.items.map((entry) => (
          <tr key={entry.id}>
            <td>{when(entry.at)}</td>
            <td>{entry.action}</td>
            <td>
              {entry.actor.kind}
              {entry.actor.id === undefined ? "" : ` ${entry.actor.id}`}
            </td>
            <td>
              {entry.target.type} {entry.target.id}
            </td>
            <td>
              {Object.entries(entry.changes)
                .map(([field, [from, to]]) => `${field}: ${JSON.stringify(from)} → ${JSON.stringify(to)}`)
                .join("; ")}
            </td>
          </tr>
        ))}
      </Table>
      {entries.pager}
    </>
  )
}
