import { useState } from "preact/hooks"
import { allows, type Me, roster } from "../api.ts"
import { Section, Table, when } from "../components/controls.tsx"
import { Check, Field, Form } from "../components/form.tsx"
import { ProblemAlert } from "../components/problem-alert.tsx"
import { useRoles } from "../roles-data.ts"
import { useAction } from "../use-call.ts"
import { RoleEditor } from "./role-editor.tsx"

/** Roles: the list, a new role, and one role's name, status and permissions. */
export const Roles = ({ me }: { readonly me: Me }) => {
  const roles = useRoles()
  const [open, setOpen] = useState<number | undefined>(undefined)
  const [name, setName] = useState("")
  const [roleKey, setRoleKey] = useState("")
  const [active, setActive] = useState(true)
  const add = useAction(
    () => roster.team.addRole({ name, roleKey, activeStatus: active }),
    (role) => {
      setName("")
      setRoleKey("")
      setOpen(role.id)
      roles.reload()
    }
  )
  const selected = roles.list.find((role) => role.id === open)
  return (
    <>
      <ProblemAlert outcome={roles} />
      <Table
        caption="Roles"
        columns={["Name", "Key", "Active", "Permissions", "Since"]}
        actions
        empty="none yet. Add a role below, then tick the permissions it grants."
      >
        {roles.list.map((role) => (
          <tr key={role.id}>
            <td>{role.name}</td>
            <td>{role.roleKey}</td>
            <td>{role.activeStatus ? "yes" : "no"}</td>
            <td>{role.permissionIds.length}</td>
            <td>{when(role.createdAt)}</td>
            <td>
              <button
                type="button"
                aria-expanded={open === role.id}
                onClick={() => setOpen(open === role.id ? undefined : role.id)}
              >
                Manage {role.name}
              </button>
            </td>
          </tr>
        ))}
      </Table>
      {selected === undefined ? null : (
        <RoleEditor
          key={selected.id}
          me={me}
          role={selected}
          onChanged={roles.reload}
          onRemoved={() => {
            setOpen(undefined)
            roles.reload()
          }}
        />
      )}
      {selected === undefined && allows(me, "team.addRole") ? (
        <Section title="Add a role">
          <Form label="Add a role" outcome={add} submit="Add the role" onSubmit={add.run}>
            <Field label="Name" name="name" value={name} onValue={setName} outcome={add} required />
            <Field
              label="Key"
              name="roleKey"
              value={roleKey}
              onValue={setRoleKey}
              outcome={add}
              hint="A short name for programs, unique in the organisation"
              required
            />
            <Check label="Active" checked={active} onChecked={setActive} />
          </Form>
        </Section>
      ) : null}
    </>
  )
}
