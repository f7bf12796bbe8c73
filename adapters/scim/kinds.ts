import { Effect, Option, Schema } from "effect"
import {
  type CorePorts,
  type DomainError,
  deprovisionUser,
  findProvisionedUser,
  getProvisionedGroup,
  getProvisionedUser,
  listProvisionedGroups,
  listProvisionedUsers,
  MemberId,
  type Principal,
  provisionGroup,
  provisionUser,
  RoleId,
  removeProvisionedGroup,
  replaceProvisionedGroup,
  replaceProvisionedUser
} from "../../core/index.ts"
import { userNameSought } from "./filter.ts"
import { groupInputOf, userInputOf } from "./input.ts"
import { type Resource, toGroupResource, toUserResource } from "./resources.ts"
import type { ScimFailure } from "./scim-error.ts"

type UseCase<A> = Effect.Effect<A, DomainError, CorePorts>

/** What SCIM does with one kind of resource, in the core's terms. */
export interface ResourceKind<Id, Input> {
  readonly name: "User" | "Group"
  readonly idOf: (text: string) => Id | undefined
  readonly inputOf: (body: unknown) => Input | ScimFailure
  readonly get: (actor: Principal, id: Id, base: string) => UseCase<Resource>
  readonly list: (actor: Principal, base: string) => UseCase<ReadonlyArray<Resource>>
  /** The few resources a filter can only match, read directly, when the filter is of a form that says so. */
  readonly candidates?: (
    actor: Principal,
    base: string,
    filter: string
  ) => UseCase<ReadonlyArray<Resource>> | undefined
  readonly create: (actor: Principal, input: Input) => UseCase<Id>
  readonly replace: (actor: Principal, id: Id, input: Input) => UseCase<void>
  readonly remove: (actor: Principal, id: Id) => UseCase<void>
}

const isMemberId = Schema.is(MemberId)

export const users: ResourceKind<MemberId, Exclude<ReturnType<typeof userInputOf>, ScimFailure>> = {
  name: "User",
  idOf: (text) => (isMemberId(text) ? text : undefined),
  inputOf: userInputOf,
  get: (actor, id, base) => Effect.map(getProvisionedUser(actor, id), (user) => toUserResource(base, user)),
  list: (actor, base) =>
    Effect.map(listProvisionedUsers(actor), (all) => all.map((user) => toUserResource(base, user))),
  candidates: (actor, base, filter) => {
    const userName = userNameSought(filter)
    if (userName === undefined) return undefined
    return Effect.map(findProvisionedUser(actor, userName), (found) =>
      Option.match(found, { onNone: () => [], onSome: (user) => [toUserResource(base, user)] })
    )
  },
  create: (actor, { input, password }) =>
    Effect.map(provisionUser(actor, input, password), (member) => member.id),
  replace: (actor, id, { input, password }) => replaceProvisionedUser(actor, id, input, password),
  remove: (actor, id) => deprovisionUser(actor, id)
}

export const groups: ResourceKind<RoleId, Exclude<ReturnType<typeof groupInputOf>, ScimFailure>> = {
  name: "Group",
  idOf: (text) => (/^[1-9][0-9]{0,14}$/u.test(text) ? RoleId.make(Number(text)) : undefined),
  inputOf: groupInputOf,
  get: (actor, id, base) =>
    Effect.map(getProvisionedGroup(actor, id), (group) => toGroupResource(base, group)),
  list: (actor, base) =>
    Effect.map(listProvisionedGroups(actor), (all) => all.map((group) => toGroupResource(base, group))),
  create: (actor, input) => provisionGroup(actor, input),
  replace: (actor, id, input) => replaceProvisionedGroup(actor, id, input),
  remove: (actor, id) => removeProvisionedGroup(actor, id)
}
