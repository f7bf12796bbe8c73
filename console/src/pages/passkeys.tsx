import { useState } from "preact/hooks"
import { roster } from "../api.ts"
import { Section, Table, when } from "../components/controls.tsx"
import { Field, Form, PasswordField } from "../components/form.tsx"
import { ProblemAlert } from "../components/problem-alert.tsx"
import { makePasskey, passkeysSupported } from "../passkey.ts"
import { useAction, useLoad } from "../use-call.ts"

/** One's passkeys: adding one on this device (with the password), renaming and removing them. */
export const Passkeys = () => {
  const passkeys = useLoad(() => roster.passkeys.listPasskeys())
  const [name, setName] = useState("")
  const [password, setPassword] = useState("")
  const [removing, setRemoving] = useState<string | undefined>(undefined)
  const [removal, setRemoval] = useState("")
  const add = useAction(
    async () => {
      const options = await roster.passkeys.passkeyOptions({ password })
      return roster.passkeys.addPasskey({ name: name.trim(), response: await makePasskey(options) })
    },
    () => {
      setName("")
      setPassword("")
      passkeys.reload()
    }
  )
  const remove = useAction(
    (id: string) => roster.passkeys.removePasskey({ id, password: removal }),
    () => {
      setRemoving(undefined)
      setRemoval("")
      passkeys.reload()
    }
  )
  const list = passkeys.data ?? []
  return (
    <Section title="Passkeys">
      <p>
        Sign in with your fingerprint, face or device PIN instead of a password; a passkey is two steps in
        one.
      </p>
      <ProblemAlert outcome={passkeys} />
      {list.length === 0 ? (
        <p class="empty">No passkeys yet: add one on this device below.</p>
      ) : (
        <Table caption="Your passkeys" columns={["Name", "Added", "Last used"]} actions>
          {list.map((passkey) => (
            <tr key={passkey.id}>
              <td>{passkey.name}</td>
              <td>{when(passkey.createdAt)}</td>
              <td>{passkey.lastUsedAt === null ? "Never" : when(passkey.lastUsedAt)}</td>
              <td>
                <button type="button" class="danger" onClick={() => setRemoving(passkey.id)}>
                  Remove {passkey.name}
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
      {removing === undefined ? null : (
        <Form
          label="Remove the passkey"
          outcome={remove}
          submit="Remove the passkey"
          onSubmit={() => remove.run(removing)}
        >
          <PasswordField
            label="Your password, to remove it"
            name="password"
            value={removal}
            onValue={setRemoval}
            outcome={remove}
            required
          />
        </Form>
      )}
      {passkeysSupported() ? (
        <Form label="Add a passkey" outcome={add} submit="Add a passkey" onSubmit={add.run}>
          <Field
            label="Name (to tell it apart)"
            name="name"
            value={name}
            onValue={setName}
            outcome={add}
            required
          />
          <PasswordField
            label="Your password, to add it"
            name="password"
            value={password}
            onValue={setPassword}
            outcome={add}
            required
          />
        </Form>
      ) : (
        <p>This browser cannot make passkeys.</p>
      )}
    </Section>
  )
}
