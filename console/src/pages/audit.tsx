import { useState } from "preact/hooks"
import { AuditAction } from "../../../core/model/audit.ts"
import { type Me, roster } from "../api.ts"
import { useAuditNames } from "../audit-names.ts"
import { Section, Table, usePages, when } from "../components/controls.tsx"
import { Field, Select } from "../components/form.tsx"
import { ProblemAlert } from "../components/problem-alert.tsx"
import { useRoles } from "../roles-data.ts"

type Action = (typeof AuditAction.literals)[number]

interface Filter {
  readonly action: string
  readonly actorId: string
  readonly targetId: string
  readonly since: string
}

const empty: Filter = { action: "", actorId: "", targetId: "", since: "" }

type Naming = ReturnType<typeof useAuditNames>

/** Fields that hold an id, by what they name. */
const idFields: Readonly<Record<string, "role" | "permission">> = {
  roleId: "role",
  permissionId: "permission"
}

/** A value of a change as a person reads it: text as it is, a role or a permission by its name. */
const shownValue = (field: string, value: unknown, names: Naming) => {
  const named = idFields[field]
  if (named !== undefined && typeof value === "number")
    return (named === "role" ? names.roleName(value) : names.permissionKey(value)) ?? `${named} ${value}`
  return typeof value === "string" ? value : JSON.stringify(value)
}

/**
 * A change in words: a creation as the values made, a removal as the values gone, what stayed the
 * same as it is (the role whose permission changed), else from → to; nothing for a value neither had.
 */
const changeText = (field: string, [was = null, is = null]: ReadonlyArray<unknown>, names: Naming) => {
  const name = idFields[field] ?? field
  if (was === null && is === null) return undefined
  if (was === null || JSON.stringify(was) === JSON.stringify(is))
    return `${name}: ${shownValue(field, is, names)}`
  if (is === null) return `${name} was ${shownValue(field, was, names)}`
  return `${name}: ${shownValue(field, was, names)} → ${shownValue(field, is, names)}`
}

/** A name in words, and an id beside it where nothing better names it (it no longer exists). */
const Named = ({ named }: { readonly named: { readonly words: string; readonly id?: string } }) => (
  <>
    {named.words}
    {named.id === undefined ? null : (
      <>
        {" "}
        <code>{named.id}</code>
      </>
    )}
  </>
)

/** The audit record, newest first: by action, actor, target and time, a page at a time. */
export const Audit = ({ me }: { readonly me: Me }) => {
  const [draft, setDraft] = useState(empty)
  const [filter, setFilter] = useState(empty)
  const roles = useRoles()
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
  const names = useAuditNames(me, roles.list, entries.items)
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
      <Table
        caption="Audit record"
        columns={["When", "Action", "Actor", "Target", "Changes"]}
        empty="nothing recorded matches these filters yet; every change made here or through the API is recorded."
      >
        {entries.items.map((entry) => (
          <tr key={entry.id}>
            <td>{when(entry.at)}</td>
            <td>{entry.action}</td>
            <td>
              <Named named={names.actor(entry.actor.kind, entry.actor.id)} />
            </td>
            <td>
              <Named named={names.target(entry.target.type, entry.target.id)} />
            </td>
            <td>
              {Object.entries(entry.changes)
                .flatMap(([field, change]) => changeText(field, change, names) ?? [])
                .join("; ")}
            </td>
          </tr>
        ))}
      </Table>
      {entries.pager}
    </>
  )
}
