import { createInterface } from "node:readline"
import { Effect, Exit, Option, Redacted, Result, Schema } from "effect"
import {
  CurrentOrganization,
  ensureOwner,
  OrganizationStore,
  Password,
  setUpOrganizations
} from "../../core/index.ts"
import { coreServices } from "../core-services.ts"
import { fail, runCommand, storedSettings } from "./cli-support.ts"

export const ownerUsage = `roster owner --username NAME --email ADDRESS [--organization SLUG]
  Makes the organisation's Owner role (the default organisation's unless named) and NAME a member in
  it, once: a second run changes nothing. The password is read from ROSTER_OWNER_PASSWORD, or asked.`

/** Asks for the password on the terminal, without echoing it. */
const askPassword = () =>
  new Promise<string>((resolve) => {
    if (!process.stdin.isTTY) fail("No terminal to ask for the password: set ROSTER_OWNER_PASSWORD", 2)
    const terminal = createInterface({ input: process.stdin, output: process.stdout, terminal: true })
    process.stdout.write("Password for the owner: ")
    // What is typed is not written back.
    Object.assign(terminal, { _writeToOutput: () => {} })
    terminal.question("", (answer) => {
      terminal.close()
      process.stdout.write("\n")
      resolve(answer)
    })
  })

const outcomes = {
  created: "made a member in it",
  joined: "an existing account, now a member in it",
  moved: "moved into it",
  unchanged: "already a member in it: nothing changed"
} as const

/** `roster owner`: the organisation's Owner role, and a member holding it, made once. */
export const owner = async (values: Record<string, string | boolean | undefined>) => {
  const { username, email, organization = "default" } = values
  if (typeof username !== "string" || typeof email !== "string") fail(`Usage: ${ownerUsage}`, 2)
  if (values.password !== undefined)
    fail("The password is never an argument: set ROSTER_OWNER_PASSWORD, or type it when asked", 2)
  const password = process.env.ROSTER_OWNER_PASSWORD ?? (await askPassword())
  if (Exit.isFailure(Schema.decodeUnknownExit(Password)(password)))
    fail("The password must be 8 to 256 characters", 2)
  const settings = await storedSettings("owner")
  const program = Effect.gen(function* () {
    yield* setUpOrganizations
    const found = yield* (yield* OrganizationStore).findByRef(String(organization))
    if (Option.isNone(found)) return yield* Effect.fail(`No organisation ${organization}`)
    return yield* ensureOwner({
      username: String(username),
      email: String(email),
      password: Redacted.make(password)
    }).pipe(Effect.provideService(CurrentOrganization, found.value.id))
  })
  const done = await runCommand(program.pipe(Effect.provide(coreServices(settings)), Effect.scoped))
  if (Result.isFailure(done)) {
    const error = done.failure
    fail(
      typeof error === "string"
        ? error
        : error._tag === "DuplicateEmail" || error._tag === "DuplicateUsername"
          ? "The username and the e-mail belong to two different accounts (or one to an account with another): name one account's"
          : `Not done: ${error._tag}`
    )
  }
  const { roleId, member, outcome } = done.success
  console.log(
    `${organization}: Owner role ${roleId} holds every permission; ${member.username} (${member.id}) is ${outcomes[outcome]}`
  )
}
