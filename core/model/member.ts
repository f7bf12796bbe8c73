import { Schema } from "effect"
import { MemberId, OrganizationId, RoleId } from "./ids.ts"
import { inNfc, isDisplayable } from "./text.ts"

export const Username = Schema.String.check(
  Schema.isPattern(/^[A-Za-z0-9._-]{3,64}$/u, {
    expected: "3 to 64 ASCII characters: letters A-Z and a-z, digits, '.', '_' or '-'"
  })
)

const emailPattern = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/u

// Every runtime the core runs on (Bun, Deno, Node, browsers) has the WHATWG URL, whose host parser
// applies IDNA (UTS #46): the core uses nothing else of the runtime.
declare const URL: new (input: string) => { readonly hostname: string }

/** Characters a URL's host cannot hold: a domain with one is kept as it was given. */
const notInHost = /[\s/?#@[\]\\:%<>^|]/u

/**
 * A domain in its ASCII form (IDNA, as DNS knows it). One that IDNA cannot convert is kept as given
 * (lower-cased): it was checked as text already, and guessing at it would store another address.
 */
export const asciiDomain = (domain: string): string => {
  if (/^[\x21-\x7E]*$/u.test(domain) || notInHost.test(domain)) return domain
  try {
    return new URL(`http://${domain}`).hostname
  } catch {
    return domain
  }
}

/**
 * An address as stored and compared: NFC, lower-cased, its domain in ASCII (`bücher.example`
 * becomes `xn--bcher-kva.example`).
 */
const canonicalEmail = (email: string): string => {
  const lowered = email.trim().normalize("NFC").toLowerCase()
  const at = lowered.lastIndexOf("@")
  return `${lowered.slice(0, at + 1)}${asciiDomain(lowered.slice(at + 1))}`
}

/** The stored form of an address the `Email` schema accepted (see `canonicalEmail`). */
export const normalizeEmail = canonicalEmail

/**
 * An e-mail address; the domain compares addresses lower-cased, in ASCII (see `normalizeEmail`).
 * The length is checked on that form, which can be longer than what was sent.
 */
export const Email = inNfc(
  Schema.String.check(
    Schema.makeFilter((email) => canonicalEmail(email).length <= 254 || "Expected at most 254 characters"),
    Schema.isPattern(emailPattern, { expected: "an e-mail address" }),
    isDisplayable
  )
)

/** Usernames are unique ignoring case; stores compare them by this key. */
export const usernameKey = (username: string): string => username.toLowerCase()

/**
 * What a login string is compared with: a username's key, or a normalised e-mail. Both are the
 * text lower-cased, so one key serves either, whichever the caller typed.
 */
export const loginKey = (login: string): string =>
  login.includes("@") ? normalizeEmail(login) : usernameKey(login.trim())

/** Whether `login` finds `account`: its username's key or its e-mail is the login's key. */
export const holdsLogin = (account: { readonly username: string; readonly email: string }, login: string) => {
  const key = loginKey(login)
  return usernameKey(account.username) === key || account.email === key
}

/**
 * Long enough to resist guessing; bounded so hashing cannot be used to exhaust the server. Counted
 * in characters (code points), as JSON Schema's `minLength` counts them, so the published bounds hold.
 */
export const Password = Schema.String.check(
  Schema.makeFilter(
    (password) => {
      const characters = [...password].length
      return (characters >= 8 && characters <= 256) || "Expected between 8 and 256 characters"
    },
    { toJsonSchema: () => ({ minLength: 8, maxLength: 256 }) }
  )
)

/** A team member as it is shown to clients: never carries the password hash. */
export class Member extends Schema.Class<Member>("roster/Member")({
  id: MemberId,
  username: Username,
  email: Email,
  /** Whether the account proved it receives mail at `email` (a verification link, or an invitation's). */
  emailVerified: Schema.Boolean,
  activestatus: Schema.Boolean,
  accountActiveStatus: Schema.Boolean,
  roleId: RoleId,
  createdAt: Schema.DateTimeUtc
}) {}

/** Whether a member's own flags let them act (their role must be active too): what a seat is billed for. */
export const isActiveMember = (member: {
  readonly activestatus: boolean
  readonly accountActiveStatus: boolean
}) => member.activestatus && member.accountActiveStatus

/**
 * A membership seen with its account: the public fields, the organisation and the session epoch.
 * The credential stays with the account (`AccountRecord`).
 */
// Stryker disable next-line StringLiteral: the identifier only names the class in JSON Schema documents, and no published one holds this class
export class MemberRecord extends Schema.Class<MemberRecord>("roster/MemberRecord")({
  ...Member.fields,
  /** The organisation of the membership. */
  organizationId: OrganizationId,
  /**
   * Grows whenever the account's or this membership's sessions must end; a session is valid only
   * while it carries the current epoch. A counter, not a time, so instances with skewed clocks agree.
   */
  sessionEpoch: Schema.Int
}) {}

/** What a change to a member may set; what it leaves out stays as it is. */
export const MemberChanges = Schema.Struct({
  username: Schema.optionalKey(Username),
  email: Schema.optionalKey(Email),
  activestatus: Schema.optionalKey(Schema.Boolean),
  roleId: Schema.optionalKey(RoleId)
})
export type MemberChanges = typeof MemberChanges.Type

/** What the audit record shows of a member's changes: never the password or its hash. */
export const memberAuditFields = [
  "username",
  "email",
  "emailVerified",
  "activestatus",
  "accountActiveStatus",
  "roleId"
]

/**
 * Each record's public face, made once: a store that remembers its reads hands the same record to
 * every request of a signed-in member, and a record, like its face, is never changed.
 */
const faces = new WeakMap<MemberRecord, Member>()

/**
 * The public face of a stored member. Its fields were checked when the record was made or read, so
 * they are not checked again: every request of a signed-in member makes one, or finds it made.
 */
export const toMember = (record: MemberRecord): Member => {
  const made = faces.get(record)
  if (made !== undefined) return made
  const face = new Member(
    {
      id: record.id,
      username: record.username,
      email: record.email,
      emailVerified: record.emailVerified,
      activestatus: record.activestatus,
      accountActiveStatus: record.accountActiveStatus,
      roleId: record.roleId,
      createdAt: record.createdAt
    },
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: checking a checked record again changes its cost, never its result
    { disableChecks: true }
  )
  faces.set(record, face)
  return face
}
