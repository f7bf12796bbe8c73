import { Option } from "effect"
import {
  AccountRecord,
  DuplicateEmail,
  DuplicateUsername,
  type MemberId,
  usernameKey
} from "../../core/index.ts"

interface StoredAccount extends AccountRecord {
  /** Grows when every session of the account must end (its memberships add their own). */
  readonly epoch: number
}

/** The accounts of the in-memory member store, with their unique usernames and e-mails. */
export class MemoryAccounts {
  private readonly byId = new Map<string, StoredAccount>()
  private readonly idByKey = new Map<string, MemberId>()

  has(id: MemberId): boolean {
    return this.byId.has(id)
  }

  /** The account of a membership that exists: every membership has its account. */
  get(id: MemberId): StoredAccount {
    const account = this.byId.get(id)
    if (account === undefined) throw new Error(`A membership without its account ${id}`)
    return account
  }

  find(id: MemberId): Option.Option<AccountRecord> {
    return Option.map(
      Option.fromNullishOr(this.byId.get(id)),
      ({ epoch: _epoch, ...account }) => new AccountRecord(account)
    )
  }

  /** By a username's key or a normalised e-mail: both are lower-case, so one map holds them. */
  findByKey(key: string): Option.Option<AccountRecord> {
    const id = this.idByKey.get(key)
    return id === undefined ? Option.none() : this.find(id)
  }

  /** Each account found by any of `keys`, once. */
  findByKeys(keys: ReadonlyArray<string>): ReadonlyArray<AccountRecord> {
    const ids = new Set(keys.flatMap((key) => this.idByKey.get(key) ?? []))
    return [...ids].flatMap((id) => Option.toArray(this.find(id)))
  }

  /** The conflict `account` would make with another account, if any. */
  conflictOf(account: AccountRecord): DuplicateEmail | DuplicateUsername | undefined {
    const emailHolder = this.idByKey.get(account.email)
    if (emailHolder !== undefined && emailHolder !== account.id)
      return new DuplicateEmail({ email: account.email })
    const usernameHolder = this.idByKey.get(usernameKey(account.username))
    if (usernameHolder !== undefined && usernameHolder !== account.id) {
      return new DuplicateUsername({ username: account.username })
    }
    return undefined
  }

  save(account: AccountRecord, epoch: number): void {
    this.delete(account.id)
    this.byId.set(account.id, { ...account, epoch })
    this.idByKey.set(account.email, account.id)
    this.idByKey.set(usernameKey(account.username), account.id)
  }

  /** Sets `changes`; `endSessions` ends the account's sessions everywhere. */
  change(id: MemberId, changes: Partial<AccountRecord>, endSessions: boolean): void {
    const { epoch, ...current } = this.get(id)
    this.save(new AccountRecord({ ...current, ...changes }), epoch + (endSessions ? 1 : 0))
  }

  delete(id: MemberId): void {
    const account = this.byId.get(id)
    if (account === undefined) return
    this.byId.delete(id)
    this.idByKey.delete(account.email)
    this.idByKey.delete(usernameKey(account.username))
  }
}
