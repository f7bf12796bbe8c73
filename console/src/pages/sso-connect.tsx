import { useState } from "preact/hooks"
import { roster } from "../api.ts"
import { Field, Form, Select } from "../components/form.tsx"
import { operatorMust, useDeployment } from "../deployment.ts"
import { useAction } from "../use-call.ts"
import { type Connection, ToRegister } from "./sso-register.tsx"
import { SamlStep } from "./sso-saml-step.tsx"

const noOidc = { issuer: "", clientId: "", clientSecret: "" }
const named = (name: string) => (name.trim() === "" ? {} : { name: name.trim() })

/** Step two of OIDC, its redirect URI registered: the client the provider made for Roster. */
const OidcStep = (props: {
  readonly name: string
  readonly onBack: () => void
  readonly onDone: () => void
}) => {
  const [values, setValues] = useState(noOidc)
  const set = (field: keyof typeof noOidc) => (value: string) => setValues({ ...values, [field]: value })
  const connect = useAction(
    () =>
      roster.sso.createSsoConnection({
        kind: "oidc",
        ...named(props.name),
        issuer: values.issuer.trim(),
        clientId: values.clientId.trim(),
        clientSecret: values.clientSecret
      }),
    props.onDone
  )
  return (
    <Form label="The OpenID provider's values" outcome={connect} submit="Connect" onSubmit={connect.run}>
      <p>Step 2 of 2: what your provider made for Roster.</p>
      <Field
        label="Issuer"
        name="issuer"
        type="url"
        value={values.issuer}
        onValue={set("issuer")}
        outcome={connect}
        hint="Its discovery document is at /.well-known/openid-configuration under it."
        required
      />
      <Field
        label="Client ID"
        name="clientId"
        value={values.clientId}
        onValue={set("clientId")}
        outcome={connect}
        required
      />
      <Field
        label="Client secret"
        name="clientSecret"
        type="password"
        value={values.clientSecret}
        onValue={set("clientSecret")}
        outcome={connect}
        required
      />
      <button type="button" onClick={props.onBack}>
        Back to step 1
      </button>
    </Form>
  )
}

/**
 * Connecting an identity provider, in two steps, since its administrator needs Roster's values
 * before they have theirs: step one shows what to register (for SAML it makes the connection, a
 * draft, whose values name it), step two takes the provider's. `resume` is a draft to finish.
 */
export const Connect = (props: { readonly resume: Connection | null; readonly onChange: () => void }) => {
  const deployment = useDeployment()
  const [kind, setKind] = useState<"oidc" | "saml">("oidc")
  const [name, setName] = useState("")
  const [naming, setNaming] = useState<string | null>(null)
  const [draft, setDraft] = useState<Connection | null>(null)
  const done = () => {
    setDraft(null)
    setNaming(null)
    setName("")
    props.onChange()
  }
  const makeDraft = useAction(
    () => roster.sso.createSsoConnection({ kind: "saml", ...named(name) }),
    (made) => {
      setDraft(made)
      props.onChange()
    }
  )
  const current = draft ?? props.resume
  if (current !== null) return <SamlStep connection={current} onDone={done} />
  if (naming !== null) return <OidcStep name={naming} onBack={() => setNaming(null)} onDone={done} />
  return (
    <Form
      label="Connect an identity provider"
      outcome={makeDraft}
      submit={kind === "oidc" ? "Next: the provider's values" : "Next: Roster's SAML values"}
      onSubmit={() => (kind === "oidc" ? setNaming(name) : makeDraft.run())}
      unavailable={deployment.data?.keepsSecrets === false ? operatorMust.secrets : undefined}
    >
      <p>Step 1 of 2: what your provider is given.</p>
      <Select
        label="Protocol"
        name="kind"
        value={kind}
        onValue={(value) => setKind(value === "saml" ? "saml" : "oidc")}
        options={[
          ["oidc", "OpenID Connect"],
          ["saml", "SAML 2.0"]
        ]}
      />
      <ToRegister kind={kind} />
      <Field label="Name" name="name" value={name} onValue={setName} outcome={makeDraft} required />
    </Form>
  )
}
