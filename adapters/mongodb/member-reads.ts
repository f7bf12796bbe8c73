import { Effect, Option } from "effect"
import type { Db } from "mongodb"
import type { MemberStoreReads } from "../../core/index.ts"
import {
  inOrganization,
  loginKey,
  type MemberId,
  type MemberRecord,
  type Membership
} from "../../core/index.ts"
import {
  type AccountDocument,
  type MembershipDocument,
  notRemoved,
  toAccount,
  toMembership
} from "./consistency/index.ts"
import { query } from "./driver.ts"
import { memberFilter } from "./member-filter.ts"
import { optionally } from "./stored-schema.ts"

export const optionalMember = optionally(toMembership)
const optionalAccount = optionally(toAccount)

const membershipOfRecord = ({
  organizationId,
  roleId,
  activestatus,
  createdAt
}: MemberRecord): Membership => ({
  organizationId,
  roleId,
  activestatus,
  createdAt
})

/** A member of the current organisation by id, read from its membership; none when there is none. */
export const membershipOf = (db: Db) => {
  const members = db.collection<MembershipDocument>("members")
  return (id: MemberId) =>
    inOrganization((organizationId) =>
      query(() => members.findOne({ accountId: id, organizationId, ...notRemoved }))
    ).pipe(Effect.flatMap(optionalMember))
}

/** What `MemberStore` reads: memberships (with their copies of the account) and accounts. */
export const memberReads = (db: Db): MemberStoreReads => {
  const accounts = db.collection<AccountDocument>("accounts")
  const members = db.collection<MembershipDocument>("members")
  const membership = membershipOf(db)
  /** The account's memberships, oldest first, each as the member it is there. */
  const membershipsWith = (id: MemberId) =>
    query(() =>
      members
        .find({ accountId: id, ...notRemoved })
        .sort({ accountId: 1, createdAt: 1, organizationId: 1 })
        .toArray()
    ).pipe(Effect.flatMap((documents) => Effect.forEach(documents, toMembership)))
  return {
    findById: membership,
    findAccount: (id) => query(() => accounts.findOne({ _id: id })).pipe(Effect.flatMap(optionalAccount)),
    findByLogin: (login) => {
      const key = loginKey(login)
      return query(() => accounts.findOne({ $or: [{ usernameKey: key }, { email: key }] })).pipe(
        Effect.flatMap(optionalAccount)
      )
    },
    findByLogins: (logins) => {
      const keys = [...new Set(logins.map(loginKey))]
      return query(() =>
        accounts.find({ $or: [{ usernameKey: { $in: keys } }, { email: { $in: keys } }] }).toArray()
      ).pipe(Effect.flatMap((documents) => Effect.forEach(documents, toAccount)))
    },
    membershipsOf: (id) => Effect.map(membershipsWith(id), (found) => found.map(membershipOfRecord)),
    findWithMemberships: (id) =>
      inOrganization((organizationId) =>
        Effect.map(membershipsWith(id), (found) =>
          Option.map(
            Option.fromNullishOr(found.find((member) => member.organizationId === organizationId)),
            (member) => ({ member, memberships: found.map(membershipOfRecord) })
          )
        )
      ),
    page: (memberQuery, limit) =>
      inOrganization((organizationId) =>
        query(() =>
          members
            .find({ organizationId, ...memberFilter(memberQuery), ...notRemoved })
            .sort({ organizationId: 1, createdAt: 1, accountId: 1 })
            .limit(limit)
            .toArray()
        )
      ).pipe(Effect.flatMap((documents) => Effect.forEach(documents, toMembership))),
    countActive: inOrganization((organizationId) =>
      query(() =>
        members.countDocuments({ organizationId, ...memberFilter({ active: true }), ...notRemoved })
      )
    )
  }
}
