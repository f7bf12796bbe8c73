import { useEffect, useState } from "preact/hooks"
import { allows, type Me, roster } from "../api.ts"
import { Check, Field, Form, Select } from "../components/form.tsx"
import { ProblemAlert } from "../components/problem-alert.tsx"
import { useRoles } from "../roles-data.ts"
import { useAction, useLoad } from "../use-call.ts"

/** The organisation: its name, the role new members get, and whether its members need TOTP. */
export const Organization = ({ me }: { readonly me: Me }) => {
  const organization = useLoad(() => roster.organizations.getOrganization())
  const roles = useRoles()
  const [name, setName] = useState("")
  const [defaultRoleId, setDefaultRoleId] = useState("")
  const [requireMfa, setRequireMfa] = useState(false)
  const [saved, setSaved] = useState(false)
  useEffect(() => {
    const loaded = organization.data
    if (loaded === undefined) return
    setName(loaded.name)
    setDefaultRoleId(loaded.defaultRoleId === undefined ? "" : String(loaded.defaultRoleId))
    setRequireMfa(loaded.requireMfa === true)
  }, [organization.data])
  const update = useAction(
    () =>
      roster.organizations.updateOrganization({
        name,
        requireMfa,
        ...(defaultRoleId === "" ? {} : { defaultRoleId: Number(defaultRoleId) })
      }),
    () => {
      setSaved(true)
      organization.reload()
    }
  )
  const loaded = organization.data
  if (loaded === undefined) return <ProblemAlert outcome={organization} />
  return allows(me, "organizations.updateOrganization") ? (
    <Form label="The organisation" outcome={update} submit="Save" onSubmit={update.run}>
      <p>
        Slug: <code>{loaded.slug}</code>; id: <code>{loaded.id}</code>
      </p>
      <Field label="Name" name="name" value={name} onValue={setName} outcome={update} required />
      <Select
        label="Default role of new members"
        name="defaultRoleId"
        value={defaultRoleId}
        onValue={setDefaultRoleId}
        outcome={update}
        options={[["", "None"], ...roles.options]}
      />
      <Check label="Members must use TOTP to sign in" checked={requireMfa} onChecked={setRequireMfa} />
      {saved ? <p role="status">Saved.</p> : null}
    </Form>
  ) : (
    <dl>
      <dt>Name</dt>
      <dd>{loaded.name}</dd>
      <dt>Slug</dt>
      <dd>{loaded.slug}</dd>
      <dt>Members must use TOTP</dt>
      <dd>{loaded.requireMfa === true ? "yes" : "no"}</dd>
    </dl>
  )
}
