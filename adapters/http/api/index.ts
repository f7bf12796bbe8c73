export * as Problem from "../problems.ts"
export { docsPath, openApiPath, RosterApi } from "./roster-api.ts"
