import { useState } from "preact/hooks"
import { roster } from "../api.ts"
import { ConfirmButton, Section, Table, when } from "../components/controls.tsx"
import { Field, Form, PasswordField } from "../components/form.tsx"
import { ProblemAlert } from "../components/problem-alert.tsx"
import { passkeysRefusedHere, useDeployment } from "../deployment.ts"
import { makePasskey, passkeysSupported } from "../passkey.ts"
import { useAction, useLoad } from "../use-call.ts"

/**
 * One's passkeys: adding one on this device (with the password, and while TOTP is on a code of it),
 * renaming and removing them.
 */
export const Passkeys = () => {
  const passkeys = useLoad(() => roster.passkeys.listPasskeys())
  const totpOn = useLoad(() => roster.mfa.mfaStatus()).data?.totp === true
  const deployment = useDeployment()
  const [name, setName] = useState("")
  const [password, setPassword] = useState("")
  const [code, setCode] = useState("")
  const [removal, setRemoval] = useState("")
  const add = useAction(
    async () => {
      const options = await roster.passkeys.passkeyOptions(
        totpOn ? { password, code: code.trim() } : { password }
      )
      return roster.passkeys.addPasskey({ name: name.trim(), response: await makePasskey(options) })
    },
    () => {
      setName("")
      setPassword("")
      setCode("")
      passkeys.reload()
    }
  )
  const remove = useAction(
    (id: string) => roster.passkeys.removePasskey({ id, password: removal }),
    () => {
      setRemoval("")
      passkeys.reload()
    }
  )
  const refused = passkeysSupported()
    ? passkeysRefusedHere(deployment.data)
    : "This browser cannot make passkeys."
  return (
    <Section title="Passkeys">
      <p>
        Sign in with your fingerprint, face or device PIN instead of a password; a passkey is two steps in
        one.
      </p>
      <ProblemAlert outcome={passkeys} />
      <Table
        caption="Your passkeys"
        columns={["Name", "Added", "Last used"]}
        actions
        empty="none yet. Add one on this device below."
      >
        {(passkeys.data ?? []).map((passkey) => (
          <tr key={passkey.id}>
            <td>{passkey.name}</td>
            <td>{when(passkey.createdAt)}</td>
            <td>{passkey.lastUsedAt === null ? "Never" : when(passkey.lastUsedAt)}</td>
            <td>
              <ConfirmButton
                label={`Remove ${passkey.name}`}
                question={`Remove the passkey ${passkey.name}?`}
                consequence={`${passkey.name} no longer signs you in, on any device. Where it is your only second step and your organisation requires one, you set up another at your next sign-in.`}
                action="Remove the passkey"
                onConfirm={() => remove.run(passkey.id)}
              >
                <PasswordField
                  label="Your password, to remove it"
                  name="password"
                  value={removal}
                  onValue={setRemoval}
                  outcome={remove}
                  required
                />
                <ProblemAlert outcome={remove} />
              </ConfirmButton>
            </td>
          </tr>
        ))}
      </Table>
      <Form
        label="Add a passkey"
        outcome={add}
        submit="Add a passkey"
        onSubmit={add.run}
        unavailable={refused}
      >
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
        {totpOn && (
          <Field
            label="Code from your authenticator app, or a recovery code"
            name="code"
            value={code}
            onValue={setCode}
            outcome={add}
            autoComplete="one-time-code"
            required
          />
        )}
      </Form>
    </Section>
  )
}
