import { Schema } from "effect"
import { HttpApiEndpoint } from "effect/http-api"
import {
  AddRoleInput,
  CatalogPermission,
  GrantPermissionInput,
  PermissionRef,
  RoleChanges,
  RoleId,
  RolePermissionDetail,
  RolePermissionDetailId,
  RoleView
} from "../../../core/index.ts"
import * as Problem from "../problems.ts"
import { jsonBody } from "./json-body.ts"
import { fromText, integerText, pageSchemaOf, RolesQuery } from "./list-query.ts"
import { ReadsTarget, RequiresPermission } from "./middleware.ts"
import { documented } from "./operation-docs.ts"

const detailId = { id: integerText.pipe(Schema.decodeTo(RolePermissionDetailId, fromText)) }
const roleId = { id: integerText.pipe(Schema.decodeTo(RoleId, fromText)) }
const exampleId = { id: "1" }

/** Roles and the permissions they hold: the endpoints of the `team` group for them. */
export const roleEndpoints = [
  HttpApiEndpoint.post("addRole", "/role/add", {
    payload: jsonBody(AddRoleInput),
    success: RoleView,
    error: Problem.DuplicateRoleKey
  })
    .annotate(RequiresPermission, "team.roles.write")
    .annotateMerge(
      documented("Add a role", {
        example: { name: "Admins", roleKey: "admins", activeStatus: true },
        links: {
          ReadRole: { operationId: "team.getRole", parameters: { id: "$response.body#/id" } },
          ChangeRole: { operationId: "team.updateRole", parameters: { id: "$response.body#/id" } },
          DeleteRole: { operationId: "team.removeRole", parameters: { id: "$response.body#/id" } },
          GrantToRole: {
            operationId: "team.grantPermission",
            requestBody: { roleId: "$response.body#/id", permissionId: 1 }
          }
        }
      })
    ),
  HttpApiEndpoint.delete("removePermission", "/role-permission-detail/:id", {
    params: detailId,
    payload: jsonBody(Schema.Struct({ permissionId: PermissionRef })),
    success: RolePermissionDetail,
    error: [Problem.NotFound, Problem.UnknownPermission, Problem.LastOwner]
  })
    .annotate(RequiresPermission, "team.permissions.write")
    .annotateMerge(
      documented("Remove a permission from a role's record", {
        example: { permissionId: 1 },
        params: exampleId
      })
    ),
  HttpApiEndpoint.post("grantPermission", "/role-permission-detail", {
    payload: jsonBody(GrantPermissionInput),
    success: RolePermissionDetail,
    error: [Problem.UnknownRole, Problem.UnknownPermission]
  })
    .annotate(RequiresPermission, "team.permissions.write")
    .annotateMerge(
      documented("Grant a permission to a role", {
        example: { roleId: 1, permissionId: 1 },
        links: {
          ReadRecord: {
            operationId: "team.getRolePermissionDetail",
            parameters: { id: "$response.body#/id" }
          },
          RemoveFromRecord: {
            operationId: "team.removePermission",
            parameters: { id: "$response.body#/id" },
            requestBody: { permissionId: 1 }
          }
        }
      })
    ),
  HttpApiEndpoint.get("getRolePermissionDetail", "/role-permission-detail/:id", {
    params: detailId,
    success: RolePermissionDetail,
    error: Problem.NotFound
  })
    .annotate(ReadsTarget, "role_permission_detail")
    .annotate(RequiresPermission, "team.read")
    .annotateMerge(documented("Read a role's permission record", { params: exampleId })),
  HttpApiEndpoint.get("listRoles", "/roles", {
    query: RolesQuery,
    success: pageSchemaOf(RoleView)
  })
    .annotate(RequiresPermission, "team.read")
    .annotateMerge(documented("List the roles")),
  HttpApiEndpoint.get("getRole", "/roles/:id", {
    params: roleId,
    success: RoleView,
    error: Problem.NotFound
  })
    .annotate(ReadsTarget, "role")
    .annotate(RequiresPermission, "team.read")
    .annotateMerge(
      documented("Read a role, with what it holds and the id of its permission record", { params: exampleId })
    ),
  HttpApiEndpoint.get("getRolePermissions", "/roles/:id/permissions", {
    params: roleId,
    success: RolePermissionDetail,
    error: Problem.NotFound
  })
    .annotate(RequiresPermission, "team.read")
    .annotateMerge(
      documented("Read a role's permission record, by the role (404 until something is granted to it)", {
        params: exampleId
      })
    ),
  HttpApiEndpoint.patch("updateRole", "/roles/:id", {
    params: roleId,
    payload: jsonBody(RoleChanges),
    success: RoleView,
    error: [Problem.NotFound, Problem.DuplicateRoleKey, Problem.LastOwner]
  })
    .annotate(RequiresPermission, "team.roles.write")
    .annotateMerge(
      documented("Rename, re-key, deactivate or reactivate a role", {
        example: { name: "Administrators" },
        params: exampleId
      })
    ),
  HttpApiEndpoint.delete("removeRole", "/roles/:id", {
    params: roleId,
    success: RoleView,
    error: [Problem.NotFound, Problem.RoleInUse]
  })
    .annotate(RequiresPermission, "team.roles.write")
    .annotateMerge(
      documented("Delete a role no member holds, with its permission record", { params: exampleId })
    ),
  HttpApiEndpoint.get("listPermissions", "/permissions", { success: Schema.Array(CatalogPermission) })
    .annotate(RequiresPermission, "team.read")
    .annotateMerge(
      documented("List the permission catalog: Roster's own (`kind: roster`) and the product's declared ones")
    )
] as const
