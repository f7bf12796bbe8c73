import { useState } from "preact/hooks"
import { roster } from "../api.ts"
import { Section } from "../components/controls.tsx"
import { Check, Field, Form, PasswordField, Select } from "../components/form.tsx"
import { useAction } from "../use-call.ts"

export const AddMember = (props: {
  readonly roles: ReadonlyArray<readonly [string, string]>
  readonly onAdded: () => void
}) => {
  const [username, setUsername] = useState("")
  const [email, setEmail] = useState("")
  const [password, setPassword] = useState("")
  const [roleId, setRoleId] = useState("")
  const [active, setActive] = useState(true)
  const add = useAction(
    () =>
      roster.team.addMember({
        username,
        email,
        password,
        roleId: Number(roleId === "" ? props.roles[0]?.[0] : roleId),
        activestatus: active
      }),
    () => {
      setUsername("")
      setEmail("")
      setPassword("")
      props.onAdded()
    }
  )
  return (
    <Section title="Add a member">
      <Form label="Add a member" outcome={add} submit="Add the member" onSubmit={add.run}>
        <Field
          label="Username"
          name="username"
          value={username}
          onValue={setUsername}
          outcome={add}
          required
        />
        <Field
          label="E-mail"
          name="email"
          type="email"
          value={email}
          onValue={setEmail}
          outcome={add}
          required
        />
        <PasswordField name="password" value={password} onValue={setPassword} outcome={add} fresh required />
        <Select
          label="Role"
          name="roleId"
          value={roleId}
          onValue={setRoleId}
          outcome={add}
          options={props.roles}
          prompt="Choose a role"
          required
        />
        <Check label="Active" checked={active} onChecked={setActive} />
      </Form>
    </Section>
  )
}
