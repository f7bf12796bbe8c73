import { useState } from "preact/hooks"
import { roster } from "../api.ts"
import { ConfirmButton, Section, Table, when } from "../components/controls.tsx"
import { Form, PasswordField } from "../components/form.tsx"
import { ProblemAlert } from "../components/problem-alert.tsx"
import { useDeployment } from "../deployment.ts"
import { deviceOf } from "../device.ts"
import { useAction, useLoad } from "../use-call.ts"
import { Passkeys } from "./passkeys.tsx"
import { TwoStep } from "./two-step.tsx"

/** One's own account: password, e-mail confirmation, sessions, passkeys, and TOTP with recovery codes. */
export const Account = (props: { readonly emailVerified: boolean }) => {
  const [current, setCurrent] = useState("")
  const [next, setNext] = useState("")
  const [message, setMessage] = useState("")
  const sessions = useLoad(() => roster.sessions.listSessions())
  // A confirmation link is offered only where this deployment mails one.
  const methods = useDeployment()
  const change = useAction(
    () => roster.auth.changePassword({ currentPassword: current, newPassword: next }),
    () => {
      setCurrent("")
      setNext("")
      setMessage("Password changed; your other sessions ended.")
      sessions.reload()
    }
  )
  const verify = useAction(
    () => roster.account.requestEmailVerification(),
    () => setMessage("A link to confirm your e-mail address is on its way.")
  )
  const end = useAction((id: string) => roster.sessions.endSession({ id }), sessions.reload)
  return (
    <>
      {message === "" ? null : <p role="status">{message}</p>}
      <Section title="Password">
        <Form
          label="Change your password"
          outcome={change}
          submit="Change the password"
          onSubmit={change.run}
        >
          <PasswordField
            label="Current password"
            name="currentPassword"
            value={current}
            onValue={setCurrent}
            outcome={change}
            required
          />
          <PasswordField
            label="New password"
            name="newPassword"
            value={next}
            onValue={setNext}
            outcome={change}
            fresh
            required
          />
        </Form>
      </Section>
      {props.emailVerified || methods.data?.emailVerification !== true ? null : (
        <Section title="E-mail address">
          <p>Your e-mail address is not confirmed yet.</p>
          <button type="button" disabled={verify.busy} onClick={() => verify.run()}>
            Send me a confirmation link
          </button>
          <ProblemAlert outcome={verify} />
        </Section>
      )}
      <Passkeys />
      <TwoStep />
      <Section title="Sessions">
        <ProblemAlert outcome={sessions} />
        <ProblemAlert outcome={end} />
        <Table
          caption="Your sessions"
          columns={["Started", "Last seen", "From"]}
          actions
          empty="none: sign in again to start one."
        >
          {(sessions.data ?? []).map((session) => (
            <tr key={session.id}>
              <td>{when(session.createdAt)}</td>
              <td>{when(session.lastSeenAt)}</td>
              <td title={session.userAgent ?? undefined}>
                {deviceOf(session.userAgent)}
                {session.address === null ? "" : `, ${session.address}`}
              </td>
              <td>
                {session.current ? (
                  "This session"
                ) : (
                  <ConfirmButton
                    label={`End the session on ${deviceOf(session.userAgent)}`}
                    question={`End the session on ${deviceOf(session.userAgent)}?`}
                    consequence="That browser is signed out at its next request and must sign in again. Your other sessions, this one included, stay."
                    action="End the session"
                    onConfirm={() => end.run(session.id)}
                  />
                )}
              </td>
            </tr>
          ))}
        </Table>
      </Section>
    </>
  )
}
