import { useState } from "preact/hooks"
import { AuditAction } from "../../../core/model/audit.ts"
import { roster } from "../api.ts"
import { Section, Table, usePages, when } from "../components/controls.tsx"
import { Field, Select } from "../components/form.tsx"
import { ProblemAlert } from "../components/problem-alert.tsx"
import { useLoad } from "../use-call.ts"

type Action = (typeof AuditAction.literals)[number]

interface Filter {
  readonly action: string
  readonly actorId: string
  readonly targetId: string
  readonly since: string
}

const empty: Filter = { action: "", actorId: "", targetId: "", since: "" }

/** Who acted, in words, where no member did. */
const actorKinds: Readonly<Record<string, string>> = {
  master: "the operator",
  open: "an unauthenticated caller",
  provider: "the payment provider",
  system: "Roster",
  scim: "the identity provider (SCIM)",
  sso: "single sign-on",
  api_key: "API key"
}

/** The audit record, newest first: by action, actor, target and time, a page at a time. */
export const Audit = () => {
  const [draft, setDraft] = useState(empty)
  const [filter, setFilter] = useState(empty)
  // People by name: the organisation's members, read once; an id no member has is shown as such.
  const people = useLoad(() => roster.team.listMembers({ limit: 200 }).firstPage())
  const names = new Map((people.data?.items ?? []).map((member) => [member.id as string, member.username]))
  const actorName = (actor: { readonly kind: string; readonly id?: string | undefined }) =>
    actor.id === undefined
      ? (actorKinds[actor.kind] ?? actor.kind)
      : actor.kind === "member"
        ? (names.get(actor.id) ?? "a former member")
        : `${actorKinds[actor.kind] ?? actor.kind} ${actor.id}`
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
      <Table
        caption="Audit record"
        columns={["When", "Action", "Actor", "Target", "Changes"]}
        empty="nothing recorded matches these filters yet; every change made here or through the API is recorded."
      >
        {entries.items.map((entry) => (
          <tr key={entry.id}>
            <td>{when(entry.at)}</td>
            <td>{entry.action}</td>
            <td>{actorName(entry.actor)}</td>
            <td>
              {entry.target.type === "member"
                ? (names.get(entry.target.id) ?? "a former member")
                : entry.target.type}{" "}
              {entry.target.type === "member" ? null : <code>{entry.target.id}</code>}
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
