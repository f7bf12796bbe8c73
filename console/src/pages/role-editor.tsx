import { useState } from "preact/hooks"
import { allows, type Me, roster } from "../api.ts"
import { ConfirmButton, Section } from "../components/controls.tsx"
import { Check, Field, Form } from "../components/form.tsx"
import { ProblemAlert } from "../components/problem-alert.tsx"
import type { Role } from "../roles-data.ts"
import { useAction, useLoad } from "../use-call.ts"

type CatalogEntry = Awaited<ReturnType<typeof roster.team.listPermissions>>[number]

/** The catalog in two groups: Roster's own permissions, then the product's (declared by the operator). */
const groupsOf = (catalog: ReadonlyArray<CatalogEntry>) => [
  { legend: "Roster's permissions", permissions: catalog.filter((entry) => entry.kind === "roster") },
  { legend: "The product's permissions", permissions: catalog.filter((entry) => entry.kind === "product") }
]

/**
 * One role: its name, key and status, and its permissions as the catalog's checkboxes, Roster's and
 * the product's in groups of their own. A grant above the caller's own permissions is refused by
 * the API, and its reason shown here.
 */
export const RoleEditor = (props: {
  readonly me: Me
  readonly role: Role
  readonly onChanged: () => void
  readonly onRemoved: () => void
}) => {
  const { me, role } = props
  const [name, setName] = useState(role.name)
  const [roleKey, setRoleKey] = useState(role.roleKey)
  const [active, setActive] = useState(role.activeStatus)
  const catalog = useLoad(() => roster.team.listPermissions())
  const update = useAction(
    () => roster.team.updateRole({ id: role.id, name, roleKey, activeStatus: active }),
    props.onChanged
  )
  // Shown at once as asked, and put back if the API refuses (a grant above one's own, say).
  const [granted, setGranted] = useState<ReadonlyArray<number>>(role.permissionIds)
  const toggle = useAction(async (permissionId: number, grant: boolean) => {
    const before = granted
    setGranted(grant ? [...granted, permissionId] : granted.filter((id) => id !== permissionId))
    try {
      await (grant
        ? roster.team.grantPermission({ roleId: role.id, permissionId })
        : role.recordId === null
          ? undefined
          : roster.team.removePermission({ id: role.recordId, permissionId }))
    } catch (error) {
      setGranted(before)
      throw error
    }
  }, props.onChanged)
  const remove = useAction(() => roster.team.removeRole({ id: role.id }), props.onRemoved)
  const mayGrant = allows(me, "team.grantPermission")
  return (
    <Section title={`Role ${role.name}`}>
      {allows(me, "team.updateRole") ? (
        <Form label="Change the role" outcome={update} submit="Save" onSubmit={update.run}>
          <Field label="Name" name="name" value={name} onValue={setName} outcome={update} />
          <Field label="Key" name="roleKey" value={roleKey} onValue={setRoleKey} outcome={update} />
          <Check label="Active" checked={active} onChecked={setActive} />
        </Form>
      ) : null}
      {groupsOf(catalog.data ?? []).map((group) =>
        group.permissions.length === 0 ? null : (
          <fieldset key={group.legend}>
            <legend>
              {group.legend} of {role.name}
            </legend>
            {group.permissions.map((permission) => (
              <div key={permission.id}>
                <Check
                  label={`${permission.key}: ${permission.description}`}
                  checked={granted.includes(permission.id)}
                  disabled={!mayGrant || toggle.busy}
                  onChecked={(checked) => toggle.run(permission.id, checked)}
                />
              </div>
            ))}
          </fieldset>
        )
      )}
      <ProblemAlert outcome={toggle} />
      {allows(me, "team.removeRole") ? (
        <p class="actions">
          <ConfirmButton
            label="Delete the role"
            question={`Delete the role ${role.name}?`}
            consequence={`${role.name} goes, with the permissions it grants. A role some member holds is not deleted: move them to another role first.`}
            action="Delete the role"
            onConfirm={remove.run}
            disabled={remove.busy}
          />
          <ProblemAlert outcome={remove} />
        </p>
      ) : null}
    </Section>
  )
}
