import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import {
  AddMemberInput,
  AddRoleInput,
  GrantPermissionInput,
  Member,
  MemberChanges,
  MemberId,
  Permission,
  PermissionId,
  Role,
  RoleChanges,
  RoleId,
  RolePermissionDetail,
  RolePermissionDetailId
} from "../../../core/index.ts"
import * as Problem from "../problems.ts"
import { jsonBody } from "./json-body.ts"
import { fromText, integerText, MembersQuery, pageSchemaOf, RolesQuery } from "./list-query.ts"
import { Authentication, RequiresPermission } from "./middleware.ts"

const detailId = { id: integerText.pipe(Schema.decodeTo(RolePermissionDetailId, fromText)) }
const roleId = { id: integerText.pipe(Schema.decodeTo(RoleId, fromText)) }

export class TeamApi extends HttpApiGroup.make("team")
  .add(
    HttpApiEndpoint.post("addMember", "/add", {
      payload: jsonBody(AddMemberInput),
      success: Member,
      error: [
        Problem.UnknownRole,
        Problem.DuplicateEmail,
        Problem.DuplicateUsername,
        Problem.BusyWithRetryAfter
      ]
    }).annotate(RequiresPermission, "team.members.write"),
    HttpApiEndpoint.post("addRole", "/role/add", {
      payload: jsonBody(AddRoleInput),
      success: Role,
      error: Problem.DuplicateRoleKey
    }).annotate(RequiresPermission, "team.roles.write"),
    HttpApiEndpoint.delete("removePermission", "/role-permission-detail/:id", {
      params: detailId,
      payload: jsonBody(Schema.Struct({ permissionId: PermissionId })),
      success: RolePermissionDetail,
      error: [Problem.NotFound, Problem.UnknownPermission, Problem.LastOwner]
    }),
    HttpApiEndpoint.post("grantPermission", "/role-permission-detail", {
      payload: jsonBody(GrantPermissionInput),
      success: RolePermissionDetail,
      error: [Problem.UnknownRole, Problem.UnknownPermission]
    }).annotate(RequiresPermission, "team.permissions.write"),
    HttpApiEndpoint.get("getRolePermissionDetail", "/role-permission-detail/:id", {
      params: detailId,
      success: RolePermissionDetail,
      error: Problem.NotFound
    }),
    HttpApiEndpoint.get("listMembers", "/members", { query: MembersQuery, success: pageSchemaOf(Member) }),
    HttpApiEndpoint.get("getMember", "/members/:id", {
      params: { id: MemberId },
      success: Member,
      error: Problem.NotFound
    }),
    HttpApiEndpoint.patch("updateMember", "/members/:id", {
      params: { id: MemberId },
      payload: jsonBody(MemberChanges),
      success: Member,
      error: [
        Problem.NotFound,
        Problem.UnknownRole,
        Problem.DuplicateEmail,
        Problem.DuplicateUsername,
        Problem.EditConflict,
        Problem.LastOwner
      ]
    }).annotate(RequiresPermission, "team.members.write"),
    HttpApiEndpoint.delete("removeMember", "/members/:id", {
      params: { id: MemberId },
      success: Member,
      error: [Problem.NotFound, Problem.LastOwner]
    }),
    HttpApiEndpoint.get("listRoles", "/roles", { query: RolesQuery, success: pageSchemaOf(Role) }),
    HttpApiEndpoint.get("getRole", "/roles/:id", {
      params: roleId,
      success: Role,
      error: Problem.NotFound
    }),
    HttpApiEndpoint.patch("updateRole", "/roles/:id", {
      params: roleId,
      payload: jsonBody(RoleChanges),
      success: Role,
      error: [Problem.NotFound, Problem.DuplicateRoleKey, Problem.LastOwner]
    }).annotate(RequiresPermission, "team.roles.write"),
    HttpApiEndpoint.delete("removeRole", "/roles/:id", {
      params: roleId,
      success: Role,
      error: [Problem.NotFound, Problem.RoleInUse]
    }),
    HttpApiEndpoint.get("listPermissions", "/permissions", { success: Schema.Array(Permission) })
  )
  .middleware(Authentication)
  .prefix("/api/v1/team") {}
