import { execFileSync, spawn } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Redacted } from "effect"
import { newServiceProviderKey, pemOf } from "../../adapters/sso/certificates.ts"
import { freePort } from "./server-process.ts"

const dist = "tools/simplesamlphp/dist"
const www = `${dist}/usr/share/simplesamlphp/www`

export interface SimpleSamlPerson {
  readonly uid: string
  readonly email: string
  readonly password: string
}

export interface RunningSimpleSaml {
  readonly url: string
  /** Its IdP's metadata, as an administrator copies it from `/saml2/idp/metadata.php`. */
  readonly metadataUrl: string
  /** Registers a service provider: its entity ID and ACS, NameID the person's e-mail. */
  readonly trust: (sp: { readonly entityId: string; readonly acsUrl: string }) => void
  readonly stop: () => void
}

const php = (value: string) => `'${value.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`

/**
 * SimpleSAMLphp (Debian's package, unpacked by `tools/simplesamlphp/setup.sh`, here when `.ci/run`
 * did not) as a SAML IdP under
 * `php -S`, its configuration, keys and metadata in a directory of its own, its users `people`
 * signing in with its own login form (`exampleauth:UserPass`).
 */
export const startSimpleSaml = async (
  people: ReadonlyArray<SimpleSamlPerson>
): Promise<RunningSimpleSaml> => {
  if (!existsSync(www)) execFileSync("bash", ["tools/simplesamlphp/setup.sh"], { stdio: "ignore" })
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const home = mkdtempSync(join(tmpdir(), "roster-simplesamlphp-"))
  for (const folder of ["config", "metadata", "cert", "tmp", "sessions"]) mkdirSync(join(home, folder))
  const key = await Effect.runPromise(newServiceProviderKey)
  writeFileSync(join(home, "cert/idp.key"), Redacted.value(key.privateKey))
  writeFileSync(join(home, "cert/idp.crt"), pemOf(key.certificate))
  // Debian's configuration, less the secrets file it reads from /var/lib, with this IdP's settings.
  const shipped = readFileSync(`${dist}/etc/simplesamlphp/config.php`, "utf8").replace(
    "require_once('/var/lib/simplesamlphp/secrets.inc.php');",
    ""
  )
  const settings: Record<string, string> = {
    baseurlpath: php(`${url}/`),
    certdir: php(`${home}/cert/`),
    metadatadir: php(`${home}/metadata/`),
    tempdir: php(`${home}/tmp/`),
    datadir: php(`${home}/tmp/`),
    loggingdir: php(`${home}/tmp/`),
    "logging.handler": php("errorlog"),
    secretsalt: php("a secret salt for the tests only, 0123456789"),
    "auth.adminpassword": php("an admin password for the tests only"),
    "enable.saml20-idp": "true",
    "module.enable": "['exampleauth' => true, 'core' => true, 'saml' => true]",
    "session.cookie.secure": "false",
    "session.cookie.samesite": "null",
    "language.cookie.secure": "false",
    "session.phpsession.savepath": php(`${home}/sessions`),
    "store.type": php("phpsession"),
    "admin.checkforupdates": "false"
  }
  const overrides = Object.entries(settings)
    .map(([name, value]) => `  ${php(name)} => ${value},`)
    .join("\n")
  writeFileSync(
    join(home, "config/config.php"),
    `${shipped}\n$config = array_merge($config, [\n${overrides}\n]);\n`
  )
  const users = people
    .map(
      (person) =>
        `  ${php(`${person.uid}:${person.password}`)} => ['uid' => [${php(person.uid)}], 'email' => [${php(person.email)}]],`
    )
    .join("\n")
  writeFileSync(
    join(home, "config/authsources.php"),
    `<?php\n$config = [\n  'admin' => ['core:AdminPassword'],\n  'people' => ['exampleauth:UserPass',\n${users}\n  ],\n];\n`
  )
  writeFileSync(
    join(home, "metadata/saml20-idp-hosted.php"),
    `<?php\n$metadata['__DYNAMIC:1__'] = ['host' => '__DEFAULT__', 'privatekey' => 'idp.key', 'certificate' => 'idp.crt', 'auth' => 'people'];\n`
  )
  const child = spawn("php", ["-S", `127.0.0.1:${port}`, "-t", www], {
    env: { ...process.env, SIMPLESAMLPHP_CONFIG_DIR: join(home, "config") },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  await new Promise<void>((resolve, reject) => {
    const watch = (chunk: Buffer) => {
      output += chunk
      if (/Development Server .* started/u.test(output)) resolve()
    }
    child.stdout.on("data", watch)
    child.stderr.on("data", watch)
    child.once("exit", (code) => reject(new Error(`php -S exited (${code}):\n${output}`)))
  })
  return {
    url,
    metadataUrl: `${url}/saml2/idp/metadata.php`,
    trust: ({ entityId, acsUrl }) =>
      writeFileSync(
        join(home, "metadata/saml20-sp-remote.php"),
        `<?php\n$metadata[${php(entityId)}] = [\n  'AssertionConsumerService' => ${php(acsUrl)},\n  'NameIDFormat' => 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',\n  'simplesaml.nameidattribute' => 'email',\n];\n`
      ),
    stop: () => {
      child.kill("SIGKILL")
      rmSync(home, { recursive: true, force: true })
    }
  }
}
