import { Option } from "effect"
import type { MemberId, MemberRecord, OrganizationId } from "../../core/index.ts"

/** A membership as kept: its account's fields are read from the account when it is shown. */
export interface StoredMembership {
  readonly accountId: MemberId
  readonly organizationId: OrganizationId
  readonly roleId: MemberRecord["roleId"]
  readonly activestatus: boolean
  readonly createdAt: MemberRecord["createdAt"]
  /** Grows when the membership's sessions must end (its account adds its own). */
  readonly epoch: number
}

/** What a new membership keeps of the member it is made for. */
export const storedMembershipOf = (member: MemberRecord): StoredMembership => ({
  accountId: member.id,
  organizationId: member.organizationId,
  roleId: member.roleId,
  activestatus: member.activestatus,
  createdAt: member.createdAt,
  epoch: member.sessionEpoch
})

/** The memberships of the in-memory member store, found by organisation and by account. */
export class MemoryMemberships {
  private readonly byKey = new Map<string, StoredMembership>()
  /** The organisations of each account's memberships: what login and the account-wide rules ask. */
  private readonly organizationsOf = new Map<MemberId, Set<OrganizationId>>()

  private static keyOf(organizationId: OrganizationId, id: MemberId) {
    return `${organizationId}/${id}`
  }

  find(organizationId: OrganizationId, id: MemberId): Option.Option<StoredMembership> {
    return Option.fromNullishOr(this.byKey.get(MemoryMemberships.keyOf(organizationId, id)))
  }

  save(membership: StoredMembership): StoredMembership {
    this.byKey.set(MemoryMemberships.keyOf(membership.organizationId, membership.accountId), membership)
    const held = this.organizationsOf.get(membership.accountId) ?? new Set()
    this.organizationsOf.set(membership.accountId, held.add(membership.organizationId))
    return membership
  }

  /** Deletes the membership; answers whether its account has any left. */
  delete(membership: StoredMembership): boolean {
    this.byKey.delete(MemoryMemberships.keyOf(membership.organizationId, membership.accountId))
    const held = this.organizationsOf.get(membership.accountId)
    held?.delete(membership.organizationId)
    if (held !== undefined && held.size > 0) return true
    this.organizationsOf.delete(membership.accountId)
    return false
  }

  ofAccount(id: MemberId): ReadonlyArray<StoredMembership> {
    return [...(this.organizationsOf.get(id) ?? [])].flatMap((organizationId) =>
      Option.toArray(this.find(organizationId, id))
    )
  }

  ofOrganization(organizationId: OrganizationId): ReadonlyArray<StoredMembership> {
    return [...this.byKey.values()].filter((membership) => membership.organizationId === organizationId)
  }
}
