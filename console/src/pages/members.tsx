import { useState } from "preact/hooks"
import { allows, type Me, roster } from "../api.ts"
import { Section, Table, usePages, when } from "../components/controls.tsx"
import { Field, Select } from "../components/form.tsx"
import { ProblemAlert } from "../components/problem-alert.tsx"
import { useRoles } from "../roles-data.ts"
import { AddMember } from "./member-add.tsx"
import { MemberEditor } from "./member-editor.tsx"

/** Members: search, filter by role and status, a page at a time; add, change, remove. */
export const Members = ({ me }: { readonly me: Me }) => {
  const roles = useRoles()
  const [q, setQ] = useState("")
  const [roleId, setRoleId] = useState("")
  const [active, setActive] = useState("")
  const [filter, setFilter] = useState({ q: "", roleId: "", active: "" })
  const [open, setOpen] = useState<string | undefined>(undefined)
  const members = usePages(
    (cursor) =>
      roster.team
        .listMembers({
          ...(cursor === undefined ? {} : { cursor }),
          ...(filter.q === "" ? {} : { q: filter.q }),
          ...(filter.roleId === "" ? {} : { roleId: Number(filter.roleId) }),
          ...(filter.active === "" ? {} : { active: filter.active === "true" })
        })
        .firstPage(),
    [filter]
  )
  const selected = members.items.find((member) => member.id === open)
  return (
    <>
      <Section title="Find members">
        <form
          class="filters"
          aria-label="Filter members"
          onSubmit={(event) => {
            event.preventDefault()
            setFilter({ q: q.trim(), roleId, active })
          }}
        >
          <Field label="Search" name="q" type="search" value={q} onValue={setQ} outcome={members} />
          <Select
            label="Role"
            name="roleId"
            value={roleId}
            onValue={setRoleId}
            options={[["", "Any role"], ...roles.options]}
          />
          <Select
            label="Status"
            name="active"
            value={active}
            onValue={setActive}
            options={[
              ["", "Any status"],
              ["true", "Active"],
              ["false", "Inactive"]
            ]}
          />
          <button type="submit">Apply</button>
        </form>
      </Section>
      <ProblemAlert outcome={members} />
      <Table
        caption="Members"
        columns={["Username", "E-mail", "Role", "Active", "Account", "Since"]}
        actions
        empty="no one matches. Add a member below, or invite them from Invitations."
      >
        {members.items.map((member) => (
          <tr key={member.id}>
            <td>{member.username}</td>
            <td>{member.email}</td>
            <td>{roles.nameOf(member.roleId)}</td>
            <td>{member.activestatus ? "yes" : "no"}</td>
            <td>{member.accountActiveStatus ? "enabled" : "disabled"}</td>
            <td>{when(member.createdAt)}</td>
            <td>
              <button
                type="button"
                aria-expanded={open === member.id}
                onClick={() => setOpen(open === member.id ? undefined : member.id)}
              >
                Manage {member.username}
              </button>
            </td>
          </tr>
        ))}
      </Table>
      {members.pager}
      {selected === undefined ? null : (
        <MemberEditor
          key={selected.id}
          me={me}
          member={selected}
          roles={roles.options}
          onChanged={members.reload}
          onRemoved={() => {
            setOpen(undefined)
            members.reload()
          }}
        />
      )}
      {selected === undefined && allows(me, "team.addMember") ? (
        <AddMember roles={roles.options} onAdded={members.restart} />
      ) : null}
    </>
  )
}
