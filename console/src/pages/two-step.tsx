import { useState } from "preact/hooks"
import { roster } from "../api.ts"
import { Section } from "../components/controls.tsx"
import { Field, Form, PasswordField } from "../components/form.tsx"
import { QrCode } from "../components/qr-code.tsx"
import { operatorMust, useDeployment } from "../deployment.ts"
import { useAction, useLoad } from "../use-call.ts"

type Step = "enrol" | "regenerate" | "remove"
const noPasswords: Readonly<Record<Step, string>> = { enrol: "", regenerate: "", remove: "" }

const RecoveryCodes = (props: { readonly codes: ReadonlyArray<string> | null }) =>
  props.codes === null ? null : (
    <div class="secret" role="status">
      <p>
        <strong>Recovery codes</strong>: keep them somewhere safe; each signs you in once, and they are not
        shown again.
      </p>
      <ul class="codes">
        {props.codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
    </div>
  )

/** TOTP: enrol with the QR code and a first code, regenerate recovery codes, or remove it. */
export const TwoStep = () => {
  const status = useLoad(() => roster.mfa.mfaStatus())
  const deployment = useDeployment()
  // Each form its own password field: typing in one does not fill another.
  const [passwords, setPasswords] = useState<Readonly<Record<Step, string>>>(noPasswords)
  const [code, setCode] = useState("")
  const [enrolment, setEnrolment] = useState<{ secret: string; otpauthUri: string } | undefined>(undefined)
  const [codes, setCodes] = useState<ReadonlyArray<string> | null>(null)
  const done = (recovery: { readonly recoveryCodes: ReadonlyArray<string> | null }) => {
    setPasswords(noPasswords)
    setCode("")
    setEnrolment(undefined)
    setCodes(recovery.recoveryCodes)
    status.reload()
  }
  const enrol = useAction(
    () => roster.mfa.enrolTotp({ password: passwords.enrol }),
    (started) => {
      setPasswords(noPasswords)
      setEnrolment(started as { secret: string; otpauthUri: string })
    }
  )
  const confirm = useAction(() => roster.mfa.confirmTotp({ code: code.trim() }), done)
  const regenerate = useAction(
    () => roster.mfa.regenerateRecoveryCodes({ password: passwords.regenerate }),
    done
  )
  const remove = useAction(
    () => roster.mfa.removeTotp({ password: passwords.remove, code: code.trim() }),
    () => done({ recoveryCodes: null })
  )
  const passwordField = (step: Step, outcome: typeof enrol, purpose: string) => (
    <PasswordField
      label={`Your password, ${purpose}`}
      name="password"
      value={passwords[step]}
      onValue={(value) => setPasswords({ ...passwords, [step]: value })}
      outcome={outcome}
      required
    />
  )
  const codeField = (outcome: typeof enrol) => (
    <Field
      label="Code from your authenticator app"
      name="code"
      value={code}
      onValue={setCode}
      outcome={outcome}
      autoComplete="one-time-code"
      inputMode="numeric"
      required
    />
  )
  const on = status.data?.totp === true
  return (
    <Section title="Two-step sign-in (TOTP)">
      <RecoveryCodes codes={codes} />
      {enrolment !== undefined ? (
        <Form label="Confirm TOTP" outcome={confirm} submit="Turn on" onSubmit={confirm.run}>
          <p>Scan the code with an authenticator app, or type the key, then give its first code.</p>
          <QrCode text={enrolment.otpauthUri} label="QR code of your TOTP key" />
          <p>
            Key: <code data-secret>{enrolment.secret}</code>
          </p>
          {codeField(confirm)}
        </Form>
      ) : on ? (
        <>
          <p>On; {status.data?.recoveryCodesLeft} recovery codes left.</p>
          <Form
            label="New recovery codes"
            outcome={regenerate}
            submit="Make new recovery codes"
            onSubmit={regenerate.run}
          >
            {passwordField("regenerate", regenerate, "to make new codes")}
          </Form>
          <Form label="Turn TOTP off" outcome={remove} submit="Turn off" onSubmit={remove.run}>
            {passwordField("remove", remove, "to turn TOTP off")}
            {codeField(remove)}
          </Form>
        </>
      ) : (
        <Form
          label="Turn TOTP on"
          outcome={enrol}
          submit="Start"
          onSubmit={enrol.run}
          unavailable={deployment.data?.keepsSecrets === false ? operatorMust.secrets : undefined}
        >
          <p>Off. Turn it on to ask for a code from an app at each sign-in.</p>
          {passwordField("enrol", enrol, "to turn TOTP on")}
        </Form>
      )}
    </Section>
  )
}
